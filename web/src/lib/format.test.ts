import { describe, expect, it } from 'vitest';
import { lean, speedProse, speedTable } from './format';

describe('display formats', () => {
  it('speeds: no decimals in tables, one decimal with a comma in prose', () => {
    expect(speedTable(218.94)).toBe('219');
    expect(speedProse(218.94)).toBe('218,9 km/h');
  });
  it('lean in whole degrees, E (left, negative) or D (right)', () => {
    expect(lean(-52.4)).toBe('52° E');
    expect(lean(48.6)).toBe('49° D');
    expect(lean(0.2)).toBe('0°');
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { decimal, formatGap, gapClass, lean, oneDecimal, setDisplayLanguage, speedTable } from './format';
import { formatSpeed } from './units-format';

const speedProse = (kmh: number) => formatSpeed(kmh, 'metric');

afterEach(() => setDisplayLanguage('pt-BR', { left: 'E', right: 'D' }));

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
  it('numbers the Brazilian way: thousands with a dot, decimals after a comma', () => {
    expect(oneDecimal(12345678.25)).toBe('12.345.678,3');
    expect(oneDecimal(999.95)).toBe('1.000,0');
    expect(decimal(1234.5, 0)).toBe('1.235');
    expect(decimal(0.5, 3)).toBe('0,500');
  });
  it('rounds the decimal that reads back as the number, half away from zero', () => {
    // 1.45 and 0.15 are stored a hair below; Intl (ICU) rounds what is written.
    expect(oneDecimal(1.45)).toBe('1,5');
    expect(oneDecimal(0.15)).toBe('0,2');
    expect(oneDecimal(-2.25)).toBe('-2,3');
    expect(oneDecimal(-0.04)).toBe('-0,0');
    expect(oneDecimal(-0)).toBe('-0,0');
  });
  it('gaps: a sign (a true minus), the language’s decimals and the unit; three decimals for a lap, two for a corner', () => {
    expect(formatGap(0.734)).toBe('+0,734 s');
    expect(formatGap(-0.1)).toBe('−0,100 s');
    expect(formatGap(62.345)).toBe('+62,345 s');
    expect(formatGap(0.8449, 2)).toBe('+0,84 s');
    // What rounds to zero carries no minus.
    expect(formatGap(-0.0004)).toBe('+0,000 s');
    setDisplayLanguage('en', { left: 'L', right: 'R' });
    expect(formatGap(-1.2044)).toBe('−1.204 s');
  });
  it('a gap is lost when it reads as a loss at the digits shown', () => {
    expect(gapClass(0.134)).toBe('delta-lost');
    expect(gapClass(0.004)).toBe('delta-gained');
    expect(gapClass(0.004, 3)).toBe('delta-lost');
    expect(gapClass(-0.2)).toBe('delta-gained');
  });
  it('the numbers String() writes with an exponent, and the non-finite ones', () => {
    expect(decimal(2.5e22, 0)).toBe('25.000.000.000.000.000.000.000');
    expect(decimal(1.5e-7, 7)).toBe('0,0000002');
    expect(decimal(5e-324, 2)).toBe('0,00');
    expect([NaN, Infinity, -Infinity].map(oneDecimal)).toEqual(['NaN', '∞', '-∞']);
  });
  it('in English: a decimal point and L/R; in Spanish: a comma and I/D', () => {
    setDisplayLanguage('en', { left: 'L', right: 'R' });
    expect([speedProse(218.94), oneDecimal(12345678.25), lean(-52.4), lean(48.6)]).toEqual([
      '218.9 km/h',
      '12,345,678.3',
      '52° L',
      '49° R',
    ]);
    setDisplayLanguage('es', { left: 'I', right: 'D' });
    expect([speedProse(218.94), decimal(1234.5, 1), lean(-52.4)]).toEqual(['218,9 km/h', '1234,5', '52° I']);
  });
});

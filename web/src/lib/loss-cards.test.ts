import { describe, expect, it } from 'vitest';
import { intlFor, translator } from '#core/i18n/intl.ts';
import { lossReason } from './loss-cards';

const t = translator(intlFor('pt-BR'));

describe('loss cards', () => {
  it("words a loss card's differences in the rider's units", () => {
    const delta = {
      segment: 'T3',
      kind: 'corner' as const,
      corner: 3,
      deltaSeconds: 0.31,
      brakedEarlierM: 12,
      apexKmh: -6,
      exitKmh: null,
      topKmh: null,
    };
    expect(lossReason(t, delta)).toBe('freou 12 m antes da referência e passou 6 km/h mais lento no ápice');
    expect(lossReason(t, delta, 'imperial')).toBe('freou 39 ft antes da referência e passou 4 mph mais lento no ápice');
  });
});

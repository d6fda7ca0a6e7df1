import { describe, expect, it } from 'vitest';
import { negotiatePreferences, parseAcceptLanguage } from './preferences';
import { defaultUnits, distanceIn, speedIn, UNIT_OF } from './units';

describe('units', () => {
  it('defaults to imperial for English in the US, Liberia and Myanmar only', () => {
    expect(['en-US', 'en_us', 'en-Latn-US', 'en-LR', 'en-MM'].map(defaultUnits)).toEqual(Array(5).fill('imperial'));
    expect(['en', 'en-GB', 'en-AU', 'es-US', 'pt-BR', 'es', 'de-DE', ''].map(defaultUnits)).toEqual(
      Array(8).fill('metric'),
    );
  });

  it('converts km/h to mph and metres to feet for display only', () => {
    expect(speedIn(100, 'metric')).toBe(100);
    expect(speedIn(160.9344, 'imperial')).toBeCloseTo(100, 10);
    expect(distanceIn(12, 'metric')).toBe(12);
    expect(distanceIn(30.48, 'imperial')).toBeCloseTo(100, 10);
  });

  it('names each quantity by its Intl unit identifier, which Intl formats', () => {
    expect(UNIT_OF.speed).toEqual({ metric: 'kilometer-per-hour', imperial: 'mile-per-hour' });
    expect(UNIT_OF.distance).toEqual({ metric: 'meter', imperial: 'foot' });
    const mph = new Intl.NumberFormat('en-US', { style: 'unit', unit: UNIT_OF.speed.imperial });
    expect(mph.format(136)).toBe('136 mph');
  });
});

describe('language negotiation', () => {
  it('orders Accept-Language by weight, keeping the order sent among equals, dropping q=0, * and junk', () => {
    expect(parseAcceptLanguage('fr;q=0.5, en-US, es;q=0.9, de;q=0, *;q=0.1, x y, pt;q=abc')).toEqual([
      'en-US',
      'es',
      'fr',
    ]);
    expect(parseAcceptLanguage(undefined)).toEqual([]);
    expect(parseAcceptLanguage('a'.repeat(100_000))).toEqual([]);
  });

  it('takes the first language Voltas speaks, its units from that tag; Portuguese and metric otherwise', () => {
    expect(negotiatePreferences(['de', 'en-US', 'es'])).toEqual({ language: 'en', units: 'imperial' });
    expect(negotiatePreferences(['pt-PT'])).toEqual({ language: 'pt-BR', units: 'metric' });
    expect(negotiatePreferences(['es-US'])).toEqual({ language: 'es', units: 'metric' });
    expect(negotiatePreferences([])).toEqual({ language: 'pt-BR', units: 'metric' });
  });
});

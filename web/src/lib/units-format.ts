/**
 * Speeds and distances in the rider's units (issue 38): stored metric, converted here only, and
 * written by Intl.NumberFormat's unit style (`218,9 km/h`, `136.0 mph`), so the unit's name
 * follows the locale. The one place the web writes a speed or a length.
 */
import { distanceIn, speedIn, UNIT_OF, type Quantity, type Units } from '#core/units.ts';
import { displayLanguage } from './format';

export type { Units };

const formats = new Map<string, Intl.NumberFormat>();

function numberFormat(locale: string, digits: number, unit?: string): Intl.NumberFormat {
  const key = `${locale}|${digits}|${unit ?? ''}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
      ...(unit ? { style: 'unit', unit, unitDisplay: 'short' } : {}),
    });
    formats.set(key, format);
  }
  return format;
}

/** A speed stored in km/h, with its unit: one decimal in prose by default (UX.md). */
export function formatSpeed(kmh: number, units: Units, locale: string = displayLanguage(), digits = 1): string {
  return numberFormat(locale, digits, UNIT_OF.speed[units]).format(speedIn(kmh, units));
}

/** A length stored in metres, with its unit, whole by default (braking points, sector ends). */
export function formatDistance(metres: number, units: Units, locale: string = displayLanguage(), digits = 0): string {
  return numberFormat(locale, digits, UNIT_OF.distance[units]).format(distanceIn(metres, units));
}

/** A speed's number alone, whole, for a table whose header names the unit. */
export function speedNumber(kmh: number, units: Units, locale: string = displayLanguage()): string {
  return numberFormat(locale, 0).format(speedIn(kmh, units));
}

/** A quantity's unit as Intl writes it after a number in `locale` (`km/h`, `mph`, `mi/h`, `m`, `ft`): headers and axes. */
export function unitLabel(quantity: Quantity, units: Units, locale: string = displayLanguage()): string {
  return numberFormat(locale, 0, UNIT_OF[quantity][units])
    .formatToParts(1)
    .filter((p) => p.type === 'unit')
    .map((p) => p.value)
    .join('');
}

/** Converts a chart's series (km/h or metres, null where there is none) for display. */
export function seriesIn(quantity: Quantity, values: readonly (number | null)[], units: Units): (number | null)[] {
  if (units === 'metric') return values as (number | null)[];
  const convert = quantity === 'speed' ? speedIn : distanceIn;
  return values.map((v) => (v === null ? null : convert(v, units)));
}

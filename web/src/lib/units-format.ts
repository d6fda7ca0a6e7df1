/**
 * Speeds and distances in the rider's units (issue 38): stored metric, converted here only, and
 * written by Intl.NumberFormat's unit style (`218,9 km/h`, `136.0 mph`), so the unit's name
 * follows the locale. The one place the web writes a speed or a length.
 */
import { distanceIn, speedIn, UNIT_OF, type Quantity, type Units } from '#core/units.ts';
import { displayLanguage, numberFormat } from './format';

export type { Units };

/** A speed stored in km/h, with its unit: one decimal in prose by default (UX.md). */
export function formatSpeed(kmh: number, units: Units, locale: string = displayLanguage(), digits = 1): string {
  return numberFormat(locale, digits, UNIT_OF.speed[units]).format(speedIn(kmh, units));
}

/** A length stored in metres, with its unit, whole by default (braking points, sector ends). */
export function formatDistance(metres: number, units: Units, locale: string = displayLanguage(), digits = 0): string {
  return numberFormat(locale, digits, UNIT_OF.distance[units]).format(distanceIn(metres, units));
}

/** A quantity's unit as Intl writes it after a number in `locale` (`km/h`, `mph`, `mi/h`, `m`, `ft`): headers and axes. */
export function unitLabel(quantity: Quantity, units: Units, locale: string = displayLanguage()): string {
  return numberFormat(locale, 0, UNIT_OF[quantity][units])
    .formatToParts(1)
    .filter((p) => p.type === 'unit')
    .map((p) => p.value)
    .join('');
}

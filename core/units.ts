/**
 * The rider's units (issue 38). Stored data stays metric (km/h, metres): these convert only for
 * display, and name each quantity's unit by its Intl identifier, so that
 * `Intl.NumberFormat(locale, { style: 'unit', unit })` writes it in the rider's language.
 */
export const UNITS = ['metric', 'imperial'] as const;
export type Units = (typeof UNITS)[number];

/** Regions whose riders read miles per hour and feet (the US, Liberia, Myanmar). */
const IMPERIAL_REGIONS = new Set(['US', 'LR', 'MM']);

/** The usual units of a locale: imperial for English in the US (and LR, MM), metric anywhere else. */
export function defaultUnits(locale: string): Units {
  const parts = locale.split(/[-_]/);
  if (parts[0]?.toLowerCase() !== 'en') return 'metric';
  // The region is the first 2-letter or 3-digit subtag after the language (a script may come first).
  const region = parts.slice(1).find((p) => /^([A-Za-z]{2}|\d{3})$/.test(p));
  return region !== undefined && IMPERIAL_REGIONS.has(region.toUpperCase()) ? 'imperial' : 'metric';
}

const KMH_PER_MPH = 1.609344;
const METRES_PER_FOOT = 0.3048;

/** A quantity as shown: what a display shows in each unit system. */
export type Quantity = 'speed' | 'distance';

/** The Intl unit identifier each quantity shows in. Distances along a track (braking points, sector ends, altitude) are short: metres or feet. */
export const UNIT_OF: Record<Quantity, Record<Units, 'kilometer-per-hour' | 'mile-per-hour' | 'meter' | 'foot'>> = {
  speed: { metric: 'kilometer-per-hour', imperial: 'mile-per-hour' },
  distance: { metric: 'meter', imperial: 'foot' },
};

/** A speed stored in km/h, in the rider's unit (km/h or mph). */
export function speedIn(kmh: number, units: Units): number {
  return units === 'imperial' ? kmh / KMH_PER_MPH : kmh;
}

/** A length stored in metres, in the rider's unit (m or ft). */
export function distanceIn(metres: number, units: Units): number {
  return units === 'imperial' ? metres / METRES_PER_FOOT : metres;
}

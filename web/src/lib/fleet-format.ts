/**
 * How the fleet pages write a device's figures: when it was last heard from ("3 h ago", in the page's
 * language through Intl), its free storage with a unit that fits, a byte count.
 */
import { displayLanguage, numberFormat } from './format';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];
const relative = new Map<string, Intl.RelativeTimeFormat>();

/** "5 minutes ago", "3 hours ago", "2 days ago" in `locale`; under a minute, "now". */
export function timeAgo(iso: string, now: number, locale: string = displayLanguage()): string {
  let format = relative.get(locale);
  if (!format) {
    format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'long' });
    relative.set(locale, format);
  }
  const ms = Math.max(0, now - Date.parse(iso));
  for (const [unit, size] of UNITS) if (ms >= size) return format.format(-Math.floor(ms / size), unit);
  return format.format(0, 'second');
}

/** Free storage: KB under a megabyte, MB with one decimal under a gigabyte, then GB. */
export function storageSize(kb: number, locale: string = displayLanguage()): string {
  if (kb < 1024) return numberFormat(locale, 0, 'kilobyte').format(kb);
  if (kb < 1024 * 1024) return numberFormat(locale, 1, 'megabyte').format(kb / 1024);
  return numberFormat(locale, 1, 'gigabyte').format(kb / 1024 / 1024);
}

/** An image's size in bytes, as storage is written. */
export function byteSize(bytes: number, locale: string = displayLanguage()): string {
  return storageSize(bytes / 1024, locale);
}

/**
 * Display formats from UX.md: km/h without decimals in tables, one decimal in prose; lean in whole
 * degrees with the side's letter; numbers the way the page's language writes them (12.345,6 in
 * pt-BR and es, 12,345.6 in en), through Intl. Lap times (m:ss.ccc) are a timing convention, the
 * same everywhere: core/formats/lap-six.ts. Speeds and lengths with their unit: units-format.ts.
 */
import { DEFAULT_LANGUAGE, type Language } from '#core/i18n/intl.ts';
import { speedIn, type Units } from '#core/units.ts';

/** The letters of a lean's side (pt-BR E/D, en L/R, es I/D), from the page's catalog. */
export interface LeanSides {
  left: string;
  right: string;
}

let language: Language = DEFAULT_LANGUAGE;
let sides: LeanSides = { left: 'E', right: 'D' };
const formats = new Map<string, Intl.NumberFormat>();

/** The page's language for numbers and lean sides: main.tsx sets it at boot, a worker from its request. */
export function setDisplayLanguage(next: Language, leanSides: LeanSides): void {
  language = next;
  sides = leanSides;
}

/** The page's language (numbers and units are written its way). */
export function displayLanguage(): Language {
  return language;
}

/** Numbers with `digits` fraction digits in `locale`, with `unit`'s short name after them if given; made once each. */
export function numberFormat(locale: string, digits: number, unit?: string): Intl.NumberFormat {
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

/** n with `digits` fraction digits (0–20), grouped and separated as the page's language writes numbers. */
export function decimal(n: number, digits: number): string {
  return numberFormat(language, digits).format(n);
}

/**
 * A gap in seconds, the one way every page writes it: a sign (a true minus), the page's decimals,
 * the unit: '+0,218 s', '−1,204 s' (pt-BR), '+0.218 s' (en). Three decimals for a lap's gap, two
 * for a piece of a lap (a corner, a straight), where the third is noise.
 */
export function formatGap(seconds: number, digits: 2 | 3 = 3): string {
  const rounded = Math.round(seconds * 10 ** digits) / 10 ** digits;
  return `${rounded < 0 ? '−' : '+'}${decimal(Math.abs(rounded), digits)} s`;
}

/** A gap's cell class: lost when it reads as a loss at the digits shown (+0,00 s is no loss), else gained. */
export function gapClass(seconds: number, digits: 2 | 3 = 2): 'delta-lost' | 'delta-gained' {
  return Math.round(seconds * 10 ** digits) > 0 ? 'delta-lost' : 'delta-gained';
}

export function speedTable(kmh: number, units: Units = 'metric'): string {
  return String(Math.round(speedIn(kmh, units)));
}

/** Negative roll is to the left; positive to the right. */
export function lean(deg: number, side: LeanSides = sides): string {
  const whole = Math.round(Math.abs(deg));
  if (whole === 0) return '0°';
  return `${whole}° ${deg < 0 ? side.left : side.right}`;
}

/**
 * Whether a session's file recorded lean: a logger without a lean sensor (most GPX, phone apps)
 * writes 0 throughout, which is "unknown", not "upright".
 */
export function leanRecorded(figures: { maxLeanLeftDeg: number; maxLeanRightDeg: number }): boolean {
  return figures.maxLeanLeftDeg !== 0 || figures.maxLeanRightDeg !== 0;
}

/** Whether lean series (a chart's) hold any: loggers without a lean sensor write 0 throughout. */
export function hasLean(series: readonly (readonly (number | null)[])[]): boolean {
  return series.some((s) => s.some((v) => v !== null && v !== 0));
}

/** One decimal (Hz, rotation, zoom). */
export function oneDecimal(n: number): string {
  return decimal(n, 1);
}

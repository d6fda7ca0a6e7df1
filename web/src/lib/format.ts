/**
 * Display formats from UX.md: km/h without decimals in tables, one decimal (comma) in prose; lean
 * in whole degrees with E/D; numbers the Brazilian way (12.345,6). Speeds follow the rider's units
 * (units-format.ts); metric when none is given.
 */
import { speedIn, type Units } from '#core/units.ts';
import { formatSpeed } from './units-format';

const formats = new Map<number, Intl.NumberFormat>();

/** n with `digits` fraction digits (0–20), the Brazilian way: '.' between thousands, ',' before the decimals. */
export function decimalBR(n: number, digits: number): string {
  let format = formats.get(digits);
  if (!format)
    formats.set(
      digits,
      (format = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: digits, maximumFractionDigits: digits })),
    );
  return format.format(n);
}

export function speedTable(kmh: number, units: Units = 'metric'): string {
  return String(Math.round(speedIn(kmh, units)));
}

export function speedProse(kmh: number, units: Units = 'metric'): string {
  return formatSpeed(kmh, units);
}

/** Negative roll is to the left (esquerda, E); positive to the right (direita, D). */
export function lean(deg: number): string {
  const whole = Math.round(Math.abs(deg));
  if (whole === 0) return '0°';
  return `${whole}° ${deg < 0 ? 'E' : 'D'}`;
}

/** One decimal with the Brazilian comma (Hz, rotation, zoom). */
export function oneDecimal(n: number): string {
  return decimalBR(n, 1);
}

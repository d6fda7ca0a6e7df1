/**
 * Display formats from UX.md: km/h without decimals in tables, one decimal (comma) in prose; lean
 * in whole degrees with E/D; numbers the Brazilian way (12.345,6).
 *
 * No Intl here: the first Intl object a page makes loads ICU's data, 25–50 ms of the main thread
 * in Chromium on these machines (measured), paid again by every new tab, on the analytics page's
 * path to its first paint. `decimalBR` writes exactly what Intl.NumberFormat('pt-BR') writes with
 * that many fraction digits (format.test.ts compares them).
 */

/**
 * n with `digits` fraction digits (0–20), the Brazilian way: '.' between thousands, ',' before
 * the decimals, '-' on negatives (−0 too, as Intl). Rounds as ICU does: the shortest decimal that
 * reads back as n (String(n)), half away from zero, so 1.45 → '1,5' (its double is 1.4499…).
 */
export function decimalBR(n: number, digits: number): string {
  if (Number.isNaN(n)) return 'NaN';
  const sign = n < 0 || Object.is(n, -0) ? '-' : '';
  const abs = Math.abs(n);
  if (abs === Infinity) return `${sign}∞`;
  const [int, frac] = shortestDecimal(abs);
  let whole = int;
  let kept = frac.slice(0, digits).padEnd(digits, '0');
  if (frac.length > digits && frac.charCodeAt(digits) >= 53 /* '5': half away from zero */) {
    const up = increment(whole + kept);
    whole = up.slice(0, up.length - digits);
    kept = up.slice(up.length - digits);
  }
  return `${sign}${grouped(whole)}${digits > 0 ? `,${kept}` : ''}`;
}

/**
 * The integer and fraction digits of the shortest decimal that reads back as a positive finite
 * n: String(n), with its exponent form (below 1e-6, from 1e21) written out.
 */
function shortestDecimal(abs: number): [int: string, frac: string] {
  const [mantissa = '', exponent] = String(abs).split('e');
  const [lead = '', rest = ''] = mantissa.split('.');
  if (exponent === undefined) return [lead, rest];
  const digits = lead + rest;
  const point = lead.length + Number(exponent);
  if (point <= 0) return ['0', '0'.repeat(-point) + digits];
  return point >= digits.length ? [digits + '0'.repeat(point - digits.length), ''] : [digits.slice(0, point), digits.slice(point)];
}

/** A string of decimal digits plus one. */
function increment(digits: string): string {
  let i = digits.length - 1;
  while (i >= 0 && digits[i] === '9') i--;
  if (i < 0) return `1${'0'.repeat(digits.length)}`;
  return digits.slice(0, i) + String(Number(digits[i]) + 1) + '0'.repeat(digits.length - 1 - i);
}

/** '1234567' → '1.234.567'. */
function grouped(int: string): string {
  let out = '';
  for (let end = int.length; end > 0; end -= 3) out = (end > 3 ? '.' : '') + int.slice(Math.max(0, end - 3), end) + out;
  return out;
}

export function speedTable(kmh: number): string {
  return String(Math.round(kmh));
}

export function speedProse(kmh: number): string {
  return `${decimalBR(kmh, 1)} km/h`;
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

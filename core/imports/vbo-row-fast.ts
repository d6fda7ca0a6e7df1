/**
 * A VBO data row read in place: a 50 MB VBO holds ~760k rows, and splitting each into strings and
 * reading every field as text was half of its import (bench/README.md, "import"). Anything this
 * does not take — another separator, a field that is not a plain decimal — goes to the plain
 * reading in vbo.ts, which the tests hold it to.
 */
import { POW10 } from '../formats/gps-six-fast';

const SPACE = 32;
const DOT = 46;
const MINUS = 45;
const PLUS = 43;

/**
 * Reads the fields of `line` whose slot (`slots[field]`) is 0 or more into `out[slot]`: plain
 * decimals, except the field at `timeField`, `hhmmss.ss` into ms of the day. Fields are one space
 * apart, `fields` of them. Returns false (and `out` is not to be trusted) for any other row.
 */
export function scanVboRow(line: string, fields: number, slots: Int8Array, timeField: number, out: Float64Array): boolean {
  const end = line.length;
  let i = 0;
  for (let field = 0; field < fields; field++) {
    if (field > 0) {
      if (i >= end || line.charCodeAt(i) !== SPACE) return false;
      i++;
    }
    const start = i;
    const slot = slots[field]!;
    if (slot < 0) {
      while (i < end && line.charCodeAt(i) !== SPACE) i++;
      if (i === start) return false;
      continue;
    }
    let negative = false;
    let c = line.charCodeAt(i);
    if (c === MINUS || c === PLUS) {
      negative = c === MINUS;
      c = line.charCodeAt(++i);
    }
    let m = 0;
    let digits = 0;
    let decimals = -1;
    for (; i < end; i++) {
      c = line.charCodeAt(i);
      if (c >= 48 && c <= 57) {
        m = m * 10 + (c - 48);
        digits++;
        if (decimals >= 0) decimals++;
      } else if (c === DOT && decimals < 0) decimals = 0;
      else break;
    }
    // At most 15 digits: m / 10^k is then exactly what Number(text) reads.
    if (digits === 0 || digits > 15 || decimals === 0 || (i < end && c !== SPACE)) return false;
    const k = decimals < 0 ? 0 : decimals;
    if (field === timeField) {
      const intDigits = digits - k;
      if (negative || intDigits !== 6 || line.charCodeAt(start) === PLUS) return false;
      const whole = Math.floor(m / POW10[k]!);
      const h = Math.floor(whole / 10000);
      const mi = Math.floor(whole / 100) % 100;
      const s = (whole % 100) + (m - whole * POW10[k]!) / POW10[k]!;
      if (h > 23 || mi > 59 || s >= 61) return false;
      out[slot] = Math.round(((h * 60 + mi) * 60 + s) * 1000);
    } else {
      const v = m / POW10[k]!;
      out[slot] = negative ? -v : v;
    }
  }
  return i === end;
}

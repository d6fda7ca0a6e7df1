/**
 * The fast path of the gps.six parser, for canonical lines (what devices send): each field
 * scanned once over the bytes, no strings, no split. It exists because every upload of a
 * rider's day (110k samples) is parsed; bench/README.md ("parse gps.six") has what it buys over
 * the strict parser alone. Anything it does not take goes to the strict parser, and the property
 * test holds it to the reference parser (test-support/gps-six-reference.ts).
 */
import { setSample, type GpsColumns } from './gps-columns';
import { MAX_LINE_LENGTH } from './six-lines';

/** Exact powers of ten: m / POW10[k] with m < 2^53 is the correctly rounded value of the decimal text. */
export const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];
/** POW10 as a typed array: a load the optimizing compiler need not guard. */
const DIV10 = Float64Array.from(POW10);
const PIPE = 124;
const COMMA = 44;
const DOT = 46;
const MINUS = 45;
const CR = 13;
const LF = 10;
/**
 * Lines one call of fastGpsRun takes at most: called a hundred times a file rather than once, it
 * is optimized as a whole after the first calls instead of through its loop (on-stack
 * replacement), whose code came out up to 1.4× slower from one process to the next.
 */
const RUN_LINES = 1024;

/**
 * Takes a run of canonical gps.six lines from b[from] (bytes end at `end`, the length of `b`): no
 * spaces, uppercase heat, plain decimals (at most 15 digits: exact, m / 10^k with m < 2^53).
 * Stores each line at c[c.count] with its number (from `firstLineNo`) and goes on until a line is
 * anything else, the columns are full or the bytes end; returns where it stopped (the start of
 * the line it did not take, past the newline after the last one it took, or end + 1 after a last
 * line without newline, as the line loop counts). The strict parser then decides the line it
 * stopped at. A digit loop stops at `end` because b[end] reads undefined.
 *
 * A line is five decimals (lat, lon, speed; roll, lean) around the fix's fields (satellites,
 * time, lap, first-lap flag, heat) and the distance: the decimal scanner is written once, in a
 * loop over the five, with the fix scanned before the fourth. Kept in one function: each scanner
 * as a function of its own ran the parse 1.4-1.7× slower (the compiler inlines only a few of them).
 */
export function fastGpsRun(b: Uint8Array, from: number, end: number, c: GpsColumns, firstLineNo: number): number {
  const decimals = new Float64Array(5);
  let i = c.count;
  const stop = Math.min(c.line.length, i + RUN_LINES);
  let lineNo = firstLineNo;
  let start = from;
  run: while (start < end && i < stop) {
    let p = start;
    let sats = 0,
      timeMs = 0,
      lapCount = 0,
      first = 0,
      heat = 0;
    for (let f = 0; f < 5; f++) {
      if (f === 3) {
        // The fix: sats|hhmmss[.fff]|lapCount|firstLap|heat|
        const satsFrom = p;
        for (let d = b[p]! - 48; d >= 0 && d <= 9; d = b[++p]! - 48) sats = sats * 10 + d;
        if (p === satsFrom || p - satsFrom > 15 || b[p] !== PIPE) break run;
        const timeFrom = ++p;
        let hhmmss = 0;
        for (let d = b[p]! - 48; d >= 0 && d <= 9 && p - timeFrom < 6; d = b[++p]! - 48) hhmmss = hhmmss * 10 + d;
        if (p - timeFrom !== 6) break run;
        let ms = 0;
        if (b[p] === DOT) {
          const fracFrom = ++p;
          for (let d = b[p]! - 48; d >= 0 && d <= 9 && p - fracFrom < 3; d = b[++p]! - 48) ms = ms * 10 + d;
          if (p === fracFrom) break run;
          ms *= DIV10[3 - (p - fracFrom)]!;
        }
        const hh = Math.floor(hhmmss / 10000),
          mi = Math.floor(hhmmss / 100) % 100,
          ss = hhmmss % 100;
        if (b[p] !== PIPE || hh > 23 || mi > 59 || ss > 60) break run;
        timeMs = ((hh * 60 + mi) * 60 + ss) * 1000 + ms;
        const lapFrom = ++p;
        for (let d = b[p]! - 48; d >= 0 && d <= 9; d = b[++p]! - 48) lapCount = lapCount * 10 + d;
        if (p === lapFrom || p - lapFrom > 15 || b[p] !== PIPE) break run;
        first = b[p + 1]! - 48;
        heat = b[p + 3]! - 65;
        if ((first !== 0 && first !== 1) || b[p + 2] !== PIPE || heat < 0 || heat > 3 || b[p + 4] !== PIPE) break run;
        p += 5;
      }
      // A decimal: [-]digits[.digits], then a comma after the latitude, a pipe after the others.
      const neg = b[p] === MINUS;
      if (neg) p++;
      let m = 0;
      let digits = 0;
      let frac = 0;
      // The integer part, then (after a dot) the fraction; digits two at a time.
      for (let part = 0; part < 2; part++) {
        const from = p;
        for (;;) {
          const d0 = b[p]! - 48;
          if (!(d0 >= 0 && d0 <= 9)) break;
          const d1 = b[p + 1]! - 48;
          if (!(d1 >= 0 && d1 <= 9)) {
            m = m * 10 + d0;
            p++;
            break;
          }
          m = m * 100 + (d0 * 10 + d1);
          p += 2;
        }
        if (p === from) break run;
        digits += p - from;
        if (part === 1) frac = p - from;
        else if (b[p] === DOT) p++;
        else break;
      }
      if (digits === 0 || digits > 15 || p >= end || b[p] !== (f === 0 ? COMMA : PIPE)) break run;
      p++;
      decimals[f] = neg ? -m / DIV10[frac]! : m / DIV10[frac]!;
    }
    // The distance, then the line's end: LF, CR LF, CR at the end of the bytes, or the end of the bytes.
    const metersFrom = p;
    let meterSum = 0;
    for (let d = b[p]! - 48; d >= 0 && d <= 9; d = b[++p]! - 48) meterSum = meterSum * 10 + d;
    if (p === metersFrom || p - metersFrom > 10 || p - start > MAX_LINE_LENGTH) break;
    if (b[p] === CR && p < end) p++;
    if (p < end && b[p] !== LF) break;
    const lat = decimals[0]!,
      lon = decimals[1]!,
      speed = decimals[2]!,
      roll = decimals[3]!,
      lean = decimals[4]!;
    if (
      meterSum > 2_000_000_000 ||
      lat < -90 ||
      lat > 90 ||
      lon < -180 ||
      lon > 180 ||
      speed < 0 ||
      speed > 1000 ||
      sats > 255 ||
      lapCount > 1_000_000 ||
      roll < -90 ||
      roll > 90 ||
      lean < -90 ||
      lean > 90
    ) {
      break;
    }
    setSample(c, i, lat, lon, speed, sats, timeMs, lapCount, first, heat, roll, lean, meterSum);
    c.line[i] = lineNo;
    i++;
    lineNo++;
    start = p + 1;
  }
  c.count = i;
  return start;
}

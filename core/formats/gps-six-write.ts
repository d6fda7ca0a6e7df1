/**
 * Columns → gps.six text, the inverse of parseGpsSix: what an imported session's gps.six is made
 * of. `gpsSixLine` is the plain form (and the tests' oracle); `gpsSixBytes` writes the same bytes
 * straight into a buffer, because a long import's text is written once per import, and building
 * a string per line cost ~1.4 µs of it (bench/README.md, "import").
 */
import { msToGpsTime } from './gps-six';
import type { GpsColumns } from './gps-columns';
import { HEATS } from './six-lines';

/** One line, as the device writes it: 7 decimals of position, 1 of speed, roll and lean. */
export function gpsSixLine(c: GpsColumns, i: number): string {
  return `${c.lat[i]!.toFixed(7)},${c.lon[i]!.toFixed(7)}|${c.speed[i]!.toFixed(1)}|${c.satellites[i]}|${msToGpsTime(c.timeMs[i]!)}|${c.lapCount[i]}|${c.firstLap[i]}|${HEATS[c.heat[i]!]}|${c.roll[i]!.toFixed(1)}|${c.leanFiltered[i]!.toFixed(1)}|${c.meterSum[i]}\n`;
}

const POW = [1, 10, 100, 1000, 1e4, 1e5, 1e6, 1e7];

/** `v` as it reads back from `d` written decimals (the writer rounds halves away from zero). */
export function asWritten(v: number, d: number): number {
  const scaled = Math.round(Math.abs(v) * POW[d]!) / POW[d]!;
  return v < 0 ? -scaled : scaled;
}
/** The longest line this writes: two positions, speed, time, counters, heat, roll, lean, distance. */
export const GPS_SIX_MAX_LINE_BYTES = 160;
const HEAT_CODES = HEATS.map((h) => h.charCodeAt(0));

/**
 * Writes the digits of a non-negative int32 (every integer of a line is one) at b[p]; returns the
 * position after them. Digits by int32 division: `%` on a double is a call.
 */
function putInt(b: Uint8Array, p: number, n: number): number {
  if (n < 10) {
    b[p] = 48 + n;
    return p + 1;
  }
  let digits = 0;
  for (let m = n; m > 0; m = (m / 10) | 0) digits++;
  for (let k = digits - 1, m = n; k >= 0; k--) {
    const q = (m / 10) | 0;
    b[p + k] = 48 + m - q * 10;
    m = q;
  }
  return p + digits;
}

/** `v` with `d` decimals (rounded as toFixed rounds the nearest decimal), at b[p]. */
function putFixed(b: Uint8Array, p: number, v: number, d: number): number {
  const scale = POW[d]!;
  const scaled = Math.round(Math.abs(v) * scale);
  if (v < 0) b[p++] = 45; // as toFixed: "-0.0" for a small negative
  const int = Math.floor(scaled / scale);
  p = putInt(b, p, int);
  b[p++] = 46;
  let frac = scaled - int * scale; // below 10^d: an integer division's digits
  for (let k = d - 1; k >= 0; k--) {
    const q = (frac / 10) | 0;
    b[p + k] = 48 + frac - q * 10;
    frac = q;
  }
  return p + d;
}

/** Two digits of an int32 at b[p]. */
function put2(b: Uint8Array, p: number, n: number): number {
  const q = (n / 10) | 0;
  b[p] = 48 + q;
  b[p + 1] = 48 + n - q * 10;
  return p + 2;
}

/** Lines [from, to) of the columns as gps.six bytes (the same text gpsSixLine writes). */
export function gpsSixBytes(c: GpsColumns, from: number, to: number): Uint8Array {
  const b = new Uint8Array((to - from) * GPS_SIX_MAX_LINE_BYTES);
  return b.subarray(0, gpsSixInto(c, from, to, b));
}

/**
 * `gpsSixBytes` written into `b` (room for GPS_SIX_MAX_LINE_BYTES a line), for a writer that
 * takes turns with its own buffers; returns how many bytes were written.
 */
export function gpsSixInto(c: GpsColumns, from: number, to: number, b: Uint8Array): number {
  let p = 0;
  for (let i = from; i < to; i++) {
    p = putFixed(b, p, c.lat[i]!, 7);
    b[p++] = 44;
    p = putFixed(b, p, c.lon[i]!, 7);
    b[p++] = 124;
    p = putFixed(b, p, c.speed[i]!, 1);
    b[p++] = 124;
    p = putInt(b, p, c.satellites[i]!);
    b[p++] = 124;
    const t = Math.round(c.timeMs[i]!) | 0; // ms of a day: an int32
    const hours = (t / 3_600_000) | 0;
    const minutes = ((t - hours * 3_600_000) / 60_000) | 0;
    const ms = t - hours * 3_600_000 - minutes * 60_000;
    const seconds = (ms / 1000) | 0;
    const milli = ms - seconds * 1000;
    p = put2(b, p, hours);
    p = put2(b, p, minutes);
    p = put2(b, p, seconds);
    b[p++] = 46;
    const hundreds = (milli / 100) | 0;
    b[p++] = 48 + hundreds;
    p = put2(b, p, milli - hundreds * 100);
    b[p++] = 124;
    p = putInt(b, p, c.lapCount[i]!);
    b[p++] = 124;
    b[p++] = 48 + c.firstLap[i]!;
    b[p++] = 124;
    b[p++] = HEAT_CODES[c.heat[i]!]!;
    b[p++] = 124;
    p = putFixed(b, p, c.roll[i]!, 1);
    b[p++] = 124;
    p = putFixed(b, p, c.leanFiltered[i]!, 1);
    b[p++] = 124;
    p = putInt(b, p, c.meterSum[i]!);
    b[p++] = 10;
  }
  return p;
}

/**
 * Columns → gps.six text, the inverse of parseGpsSix: what an imported session's gps.six is made
 * of, as the device writes it.
 */
import { msToGpsTime } from './gps-six';
import type { GpsColumns } from './gps-columns';
import { HEATS } from './six-lines';

/** One line, as the device writes it: 7 decimals of position, 1 of speed, roll and lean. */
export function gpsSixLine(c: GpsColumns, i: number): string {
  return `${c.lat[i]!.toFixed(7)},${c.lon[i]!.toFixed(7)}|${c.speed[i]!.toFixed(1)}|${c.satellites[i]}|${msToGpsTime(c.timeMs[i]!)}|${c.lapCount[i]}|${c.firstLap[i]}|${HEATS[c.heat[i]!]}|${c.roll[i]!.toFixed(1)}|${c.leanFiltered[i]!.toFixed(1)}|${c.meterSum[i]}\n`;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Lines joined before they are encoded: one encode per line cost as much as making the line; one string of all of them, more. */
const LINES_PER_ENCODE = 64;

/** Every line of the columns as UTF-8, encoded LINES_PER_ENCODE lines at a time. */
export function gpsSixBytes(c: GpsColumns): Uint8Array {
  let out = new Uint8Array(c.count * 96); // a device's line is 60-90 bytes
  let at = 0;
  for (let from = 0; from < c.count; from += LINES_PER_ENCODE) {
    let lines = '';
    for (let i = from; i < Math.min(from + LINES_PER_ENCODE, c.count); i++) lines += gpsSixLine(c, i);
    if (out.length - at < 3 * lines.length) {
      const grown = new Uint8Array(2 * out.length + 3 * lines.length);
      grown.set(out.subarray(0, at));
      out = grown;
    }
    at += encoder.encodeInto(lines, out.subarray(at)).written;
  }
  return out.subarray(0, at);
}

/** Every line of the columns, as text. */
export function gpsSixLines(c: GpsColumns): string {
  return decoder.decode(gpsSixBytes(c));
}

const POW = [1, 10, 100, 1000, 1e4, 1e5, 1e6, 1e7];

/**
 * `v` rounded to `d` decimals, halves away from zero: an imported session's values are rounded so
 * before they are written, and toFixed then writes exactly these digits.
 */
export function asWritten(v: number, d: number): number {
  const scaled = Math.round(Math.abs(v) * POW[d]!) / POW[d]!;
  return v < 0 ? -scaled : scaled;
}

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

/** Every line of the columns, as text. */
export function gpsSixLines(c: GpsColumns): string {
  let text = '';
  for (let i = 0; i < c.count; i++) text += gpsSixLine(c, i);
  return text;
}

const encoder = new TextEncoder();

/** Every line of the columns as UTF-8. */
export function gpsSixBytes(c: GpsColumns): Uint8Array {
  return encoder.encode(gpsSixLines(c));
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

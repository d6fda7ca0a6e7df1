/**
 * Samples → gps.six text, the inverse of parseGpsSix: the one place a gps.six line is written, as
 * the device writes it (an imported session's gps.six, the simulator's, a session's download).
 */
import { msToGpsTime } from './gps-six';
import type { GpsColumns } from './gps-columns';
import { HEATS } from './six-lines';

/** One sample's values, as the columns hold them (heat 0..3 for A..D, time of day in ms). */
export interface GpsSixSample {
  lat: number;
  lon: number;
  speed: number;
  satellites: number;
  timeMs: number;
  lapCount: number;
  firstLap: number;
  heat: number;
  roll: number;
  leanFiltered: number;
  meterSum: number;
}

/** One line, as the device writes it: 7 decimals of position, 1 of speed, roll and lean. */
export function gpsSixSampleLine(s: GpsSixSample): string {
  return `${s.lat.toFixed(7)},${s.lon.toFixed(7)}|${s.speed.toFixed(1)}|${s.satellites}|${msToGpsTime(s.timeMs)}|${s.lapCount}|${s.firstLap}|${HEATS[s.heat]}|${s.roll.toFixed(1)}|${s.leanFiltered.toFixed(1)}|${s.meterSum}\n`;
}

/** The line of sample `i` of the columns. */
export function gpsSixLine(c: GpsColumns, i: number): string {
  return gpsSixSampleLine({
    lat: c.lat[i]!,
    lon: c.lon[i]!,
    speed: c.speed[i]!,
    satellites: c.satellites[i]!,
    timeMs: c.timeMs[i]!,
    lapCount: c.lapCount[i]!,
    firstLap: c.firstLap[i]!,
    heat: c.heat[i]!,
    roll: c.roll[i]!,
    leanFiltered: c.leanFiltered[i]!,
    meterSum: c.meterSum[i]!,
  });
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

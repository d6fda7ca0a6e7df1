/**
 * Two laps' videos kept together by position along the track: a lap's time and distance from its
 * start, to go from a moment of one video to the same place in the other. Pure; no DOM.
 */
import { lapDistances, type LapSegment } from '#core/analysis/gps-analysis.ts';
import type { GpsColumns } from '#core/formats/gps-columns.ts';

export interface LapTrack {
  /** UTC ms of the lap's first sample. */
  startUtcMs: number;
  /** Per sample of the lap: metres and ms since its start. */
  distM: Float64Array;
  timeMs: Float64Array;
  lengthM: number;
}

export function lapTrack(c: GpsColumns, lap: LapSegment, utc: Float64Array): LapTrack {
  const distM = lapDistances(c, lap);
  const timeMs = new Float64Array(distM.length);
  for (let k = 0; k < distM.length; k++) timeMs[k] = utc[lap.start + k]! - utc[lap.start]!;
  return { startUtcMs: utc[lap.start]!, distM, timeMs, lengthM: distM[distM.length - 1] ?? 0 };
}

/** `y` at `x` along increasing `xs` (clamped at the ends). */
function interpolate(xs: Float64Array, ys: Float64Array, x: number): number {
  const n = xs.length;
  if (n === 0) return NaN;
  if (x <= xs[0]!) return ys[0]!;
  if (x >= xs[n - 1]!) return ys[n - 1]!;
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! <= x) lo = mid;
    else hi = mid;
  }
  const span = xs[hi]! - xs[lo]!;
  return span > 0 ? ys[lo]! + ((ys[hi]! - ys[lo]!) * (x - xs[lo]!)) / span : ys[lo]!;
}

/** Share of the lap (0..1) ridden at `utcMs`; null before its start or after its end. */
export function fractionAt(t: LapTrack, utcMs: number): number | null {
  const ms = utcMs - t.startUtcMs;
  const last = t.timeMs[t.timeMs.length - 1];
  if (last === undefined || ms < 0 || ms > last || t.lengthM <= 0) return null;
  return interpolate(t.timeMs, t.distM, ms) / t.lengthM;
}

/** UTC ms at which the lap reached share `f` of its length. */
export function utcAtFraction(t: LapTrack, f: number): number {
  return t.startUtcMs + interpolate(t.distM, t.timeMs, Math.max(0, Math.min(1, f)) * t.lengthM);
}

/** `values` on the compare grid (`x`, metres) at `positionM`; null where the lap has none. */
export function onGrid(x: readonly number[], values: readonly (number | null)[], positionM: number): number | null {
  if (x.length === 0) return null;
  const step = x.length > 1 ? x[1]! - x[0]! : 1;
  const k = Math.max(0, Math.min(x.length - 1, Math.round((positionM - x[0]!) / step)));
  return values[k] ?? null;
}

/**
 * How the following video catches up with the leading one: a playback rate that closes a small
 * gap over about a second (smooth), a seek past one second off (after a jump).
 */
export function followRate(offByMs: number): { seekTo: true } | { rate: number } {
  if (Math.abs(offByMs) > 1_000) return { seekTo: true };
  return { rate: Math.max(0.5, Math.min(2, 1 + offByMs / 1_000)) };
}

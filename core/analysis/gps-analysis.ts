import { HEATS, type Heat } from '../formats/six-lines';
import { type GpsColumns } from '../formats/gps-columns';
import { haversineM } from '../geo';

/** Below this many satellites a fix is weak. */
export const WEAK_FIX_SATELLITES = 6;
/** A lap whose sample rate falls below this share of the session's rate is flagged. */
const WEAK_RATE_SHARE = 0.8;

export interface LapSegment {
  heat: Heat;
  lapCount: number;
  /** Sample index range [start, end). */
  start: number;
  end: number;
  outLap: boolean;
  durationMs: number;
  distanceM: number;
  topSpeedKmh: number;
  topSpeedIndex: number;
  /** Lowest speed on the lap (the slowest corner on a flying lap). */
  minSpeedKmh: number;
  /** Most negative roll (left), degrees. */
  maxLeanLeftDeg: number;
  maxLeanRightDeg: number;
  meanSatellites: number;
  minSatellites: number;
  sampleRateHz: number;
  weakFix: boolean;
}

export interface SessionGpsAnalysis {
  laps: LapSegment[];
  topSpeedKmh: number;
  topSpeedLap: number | null;
  topSpeedHeat: Heat | null;
  /** Highest roll (right) and lowest roll (left), with their laps: what the spec only logged. */
  maxLeanRightDeg: number;
  maxLeanRightLap: number | null;
  maxLeanRightHeat: Heat | null;
  maxLeanLeftDeg: number;
  maxLeanLeftLap: number | null;
  maxLeanLeftHeat: Heat | null;
  sampleRateHz: number;
}

const DAY_MS = 86_400_000;

/** Elapsed ms between two times of day (a session may cross midnight UTC). */
export function elapsedMs(fromMs: number, toMs: number): number {
  const d = toMs - fromMs;
  return d < -DAY_MS / 2 ? d + DAY_MS : d;
}

/** Splits samples into laps (contiguous runs of the same heat and lap number) with their figures. */
export function analyzeGps(c: GpsColumns): SessionGpsAnalysis {
  const laps: LapSegment[] = [];
  let start = 0;
  for (let i = 1; i <= c.count; i++) {
    if (i < c.count && c.lapCount[i] === c.lapCount[start] && c.heat[i] === c.heat[start]) continue;
    laps.push(segment(c, start, i));
    start = i;
  }
  const totalMs = laps.reduce((a, l) => a + l.durationMs, 0);
  const sampleRateHz = totalMs > 0 ? (laps.reduce((a, l) => a + (l.end - l.start - 1), 0) * 1000) / totalMs : 0;
  for (const l of laps)
    l.weakFix =
      l.minSatellites < WEAK_FIX_SATELLITES || (sampleRateHz > 0 && l.sampleRateHz < WEAK_RATE_SHARE * sampleRateHz);
  let top = -1;
  let maxRoll = -Infinity;
  let minRoll = Infinity;
  let maxLeanRightAt = -1;
  let maxLeanLeftAt = -1;
  for (let i = 0; i < c.count; i++) {
    if (top < 0 || c.speed[i]! > c.speed[top]!) top = i;
    if (c.roll[i]! > maxRoll) {
      maxRoll = c.roll[i]!;
      maxLeanRightAt = i;
    }
    if (c.roll[i]! < minRoll) {
      minRoll = c.roll[i]!;
      maxLeanLeftAt = i;
    }
  }
  return {
    laps,
    topSpeedKmh: top >= 0 ? c.speed[top]! : 0,
    topSpeedLap: top >= 0 ? c.lapCount[top]! : null,
    topSpeedHeat: top >= 0 ? HEATS[c.heat[top]!]! : null,
    maxLeanRightDeg: maxLeanRightAt >= 0 ? maxRoll : 0,
    maxLeanRightLap: maxLeanRightAt >= 0 ? c.lapCount[maxLeanRightAt]! : null,
    maxLeanRightHeat: maxLeanRightAt >= 0 ? HEATS[c.heat[maxLeanRightAt]!]! : null,
    maxLeanLeftDeg: maxLeanLeftAt >= 0 ? minRoll : 0,
    maxLeanLeftLap: maxLeanLeftAt >= 0 ? c.lapCount[maxLeanLeftAt]! : null,
    maxLeanLeftHeat: maxLeanLeftAt >= 0 ? HEATS[c.heat[maxLeanLeftAt]!]! : null,
    sampleRateHz,
  };
}

function segment(c: GpsColumns, start: number, end: number): LapSegment {
  let distanceM = 0;
  let top = start;
  let minSpeed = Infinity;
  let left = 0;
  let right = 0;
  let sats = 0;
  let minSats = Infinity;
  for (let i = start; i < end; i++) {
    if (i > start) distanceM += haversineM(c.lat[i - 1]!, c.lon[i - 1]!, c.lat[i]!, c.lon[i]!);
    if (c.speed[i]! > c.speed[top]!) top = i;
    minSpeed = Math.min(minSpeed, c.speed[i]!);
    left = Math.min(left, c.roll[i]!);
    right = Math.max(right, c.roll[i]!);
    sats += c.satellites[i]!;
    minSats = Math.min(minSats, c.satellites[i]!);
  }
  const n = end - start;
  const durationMs = n > 1 ? elapsedMs(c.timeMs[start]!, c.timeMs[end - 1]!) : 0;
  return {
    heat: HEATS[c.heat[start]!]!,
    lapCount: c.lapCount[start]!,
    start,
    end,
    outLap: c.firstLap[start] === 1,
    durationMs,
    distanceM,
    topSpeedKmh: c.speed[top]!,
    topSpeedIndex: top,
    minSpeedKmh: minSpeed,
    maxLeanLeftDeg: left,
    maxLeanRightDeg: right,
    meanSatellites: sats / n,
    minSatellites: minSats,
    sampleRateHz: durationMs > 0 ? ((n - 1) * 1000) / durationMs : 0,
    weakFix: false,
  };
}

/** Distance along the lap for each sample: the device's meterSum, or the GPS path when it has none. */
export function lapDistances(c: GpsColumns, lap: LapSegment): Float64Array {
  const n = lap.end - lap.start;
  const out = new Float64Array(n);
  const deviceHasDistance = c.meterSum[lap.end - 1]! > c.meterSum[lap.start]!;
  let acc = 0;
  for (let k = 0; k < n; k++) {
    const i = lap.start + k;
    if (deviceHasDistance) out[k] = c.meterSum[i]! - c.meterSum[lap.start]!;
    else {
      if (k > 0) acc += haversineM(c.lat[i - 1]!, c.lon[i - 1]!, c.lat[i]!, c.lon[i]!);
      out[k] = acc;
    }
  }
  return out;
}

/** Elapsed seconds since the lap's first sample. */
function lapTimes(c: GpsColumns, lap: LapSegment): Float64Array {
  const n = lap.end - lap.start;
  const out = new Float64Array(n);
  for (let k = 0; k < n; k++) out[k] = elapsedMs(c.timeMs[lap.start]!, c.timeMs[lap.start + k]!) / 1000;
  return out;
}

/** Time at distance `d` on a lap (linear interpolation over monotonic distances). */
function timeAtDistance(dist: Float64Array, time: Float64Array, d: number, from: number): [number, number] {
  let i = from;
  while (i < dist.length - 1 && dist[i + 1]! < d) i++;
  if (i >= dist.length - 1) return [time[dist.length - 1]!, i];
  const d0 = dist[i]!;
  const d1 = dist[i + 1]!;
  const f = d1 > d0 ? (d - d0) / (d1 - d0) : 0;
  return [time[i]! + (time[i + 1]! - time[i]!) * Math.max(0, Math.min(1, f)), i];
}

/**
 * Delta time of `lap` against `reference`, aligned by distance: for each sample of `lap`,
 * its elapsed time minus the reference's elapsed time at the same distance (seconds; positive =
 * slower). A lap against itself is 0 everywhere.
 */
export function deltaAgainst(
  c: GpsColumns,
  lap: LapSegment,
  reference: LapSegment,
): { distance: Float64Array; delta: Float64Array } {
  const dist = lapDistances(c, lap);
  const time = lapTimes(c, lap);
  const refDist = lapDistances(c, reference);
  const refTime = lapTimes(c, reference);
  const delta = new Float64Array(dist.length);
  let cursor = 0;
  for (let k = 0; k < dist.length; k++) {
    const [t, at] = timeAtDistance(refDist, refTime, dist[k]!, cursor);
    cursor = at;
    delta[k] = time[k]! - t;
  }
  return { distance: dist, delta };
}

/**
 * Min/max decimation for drawing: per bucket (pixel column) of x, keeps the first, the minimum,
 * the maximum and the last sample, in order. Every extreme survives; the shape is exact at that width.
 */
export function decimateMinMax(x: ArrayLike<number>, y: ArrayLike<number>, buckets: number): number[] {
  const n = x.length;
  if (n <= buckets * 4 || n === 0) return Array.from({ length: n }, (_, i) => i);
  const x0 = x[0]!;
  const span = x[n - 1]! - x0 || 1;
  const keep: number[] = [];
  let b = -1;
  let first = 0;
  let min = 0;
  let max = 0;
  let last = 0;
  const flush = () => {
    if (b < 0) return;
    keep.push(...[...new Set([first, min, max, last])].sort((p, q) => p - q));
  };
  for (let i = 0; i < n; i++) {
    const bucket = Math.min(buckets - 1, Math.floor(((x[i]! - x0) / span) * buckets));
    if (bucket !== b) {
      flush();
      b = bucket;
      first = min = max = last = i;
      continue;
    }
    if (y[i]! < y[min]!) min = i;
    if (y[i]! > y[max]!) max = i;
    last = i;
  }
  flush();
  return keep;
}

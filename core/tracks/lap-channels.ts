// One complete lap's fixes against position along the track's line (the corner study, issue 62):
// speed, longitudinal and lateral g, lean, offset from the line, and the fixes not to trust; and
// reading a channel at a position.
import { lateralOffset, positionsAlong } from './lap-positions';
import type { TimedLap, Trace } from './lap-timing';
import type { TrackLine } from './track-line';

export const G = 9.81;
/** Longitudinal g is the slope of speed over time within this many seconds either side (GPS speed jitters). */
export const ACCEL_HALF_WINDOW_S = 0.25;
/** Fewer satellites than this, or a gap, and the line's offset and figures there are not trusted. */
const WEAK_SATELLITES = 6;
const OUTAGE_MS = 1000;

export type LeanSource = 'device' | 'gps';

/** One complete lap's fixes against position along the track's line. */
export interface LapChannels {
  /** Metres along the line (the furthest so far: positions only rise). */
  s: Float64Array;
  /** Seconds since the lap began. */
  t: Float64Array;
  /** m/s. */
  v: Float64Array;
  /** Longitudinal g (negative: slowing) and lateral g (positive: to the right). */
  ax: Float64Array;
  ay: Float64Array;
  /** Degrees, negative to the left: the device's roll, or from lateral g. */
  lean: Float64Array;
  /** Metres left (positive) or right of the track's line. */
  offset: Float64Array;
  /** A weak fix, or a gap after it. */
  weak: Uint8Array;
}

export function lapChannels(
  trace: Trace,
  time: Float64Array,
  line: TrackLine,
  kappa: Float64Array,
  lap: TimedLap,
  source: LeanSource,
): LapChannels {
  const from = lap.start.index;
  const to = Math.min(trace.count - 1, lap.end.index + 1);
  const raw = positionsAlong(line, trace, from, to);
  const n = raw.length;
  const s = new Float64Array(n);
  const t = new Float64Array(n);
  const v = new Float64Array(n);
  const weak = new Uint8Array(n);
  let furthest = -Infinity;
  for (let k = 0; k < n; k++) {
    const i = from + k;
    s[k] = furthest = Math.max(furthest, raw[k]!);
    t[k] = (time[i]! - lap.start.ms) / 1000;
    v[k] = trace.speed[i]! / 3.6;
    const gap = k > 0 && time[i]! - time[i - 1]! > OUTAGE_MS;
    weak[k] = trace.satellites[i]! < WEAK_SATELLITES || gap ? 1 : 0;
    if (gap) weak[k - 1] = 1;
  }
  const ax = slopeOverTime(t, v);
  const ay = new Float64Array(n);
  const lean = new Float64Array(n);
  const offset = new Float64Array(n);
  const m = line.x.length;
  const step = line.length / m;
  for (let k = 0; k < n; k++) {
    const i = from + k;
    const at = ((Math.round(s[k]! / step) % m) + m) % m;
    if (source === 'device') {
      lean[k] = trace.roll![i]!;
      ay[k] = Math.tan((Math.max(-70, Math.min(70, lean[k]!)) * Math.PI) / 180);
    } else {
      ay[k] = -(v[k]! ** 2 * kappa[at]!) / G;
      lean[k] = (Math.atan(ay[k]!) * 180) / Math.PI;
    }
    offset[k] = lateralOffset(line, trace.lat[i]!, trace.lon[i]!, s[k]!);
  }
  for (let k = 0; k < n; k++) ax[k] = ax[k]! / G;
  return { s, t, v, ax, ay, lean, offset, weak };
}

/** The slope of `v` over `t` at each point: least squares within ACCEL_HALF_WINDOW_S either side (a neighbour at least). */
function slopeOverTime(t: Float64Array, v: Float64Array): Float64Array {
  const n = t.length;
  const out = new Float64Array(n);
  // Running sums over the window [lo, hi], kept as it slides (times from the lap's start: small).
  let lo = 0;
  let hi = -1;
  let [c, st, sv, stt, stv] = [0, 0, 0, 0, 0];
  const add = (j: number, sign: number) => {
    c += sign;
    st += sign * t[j]!;
    sv += sign * v[j]!;
    stt += sign * t[j]! * t[j]!;
    stv += sign * t[j]! * v[j]!;
  };
  for (let k = 0; k < n; k++) {
    while (hi + 1 < n && (t[hi + 1]! - t[k]! <= ACCEL_HALF_WINDOW_S || hi < k + 1)) add(++hi, 1);
    while (lo < k - 1 && t[k]! - t[lo]! > ACCEL_HALF_WINDOW_S) add(lo++, -1);
    const den = stt - (st * st) / c;
    out[k] = den > 1e-12 ? (stv - (st * sv) / c) / den : 0;
  }
  return out;
}

/** The first index whose position is at or past `at` (positions rise). */
export function indexAt(s: Float64Array, at: number): number {
  let lo = 0;
  let hi = s.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (s[mid]! < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A channel's value at a position, between the fixes around it. */
export function valueAtM(ch: LapChannels, values: Float64Array, at: number): number {
  const j = Math.max(1, Math.min(ch.s.length - 1, indexAt(ch.s, at)));
  const [s0, s1] = [ch.s[j - 1]!, ch.s[j]!];
  const f = s1 > s0 ? Math.max(0, Math.min(1, (at - s0) / (s1 - s0))) : 0;
  return values[j - 1]! + f * (values[j]! - values[j - 1]!);
}

/** Where between fixes j-1 and j a channel crossed `level`, in metres along the line. */
export function crossingM(ch: LapChannels, values: Float64Array, j: number, level: number): number {
  const [a, b] = [values[j - 1]!, values[j]!];
  const f = b !== a ? Math.max(0, Math.min(1, (level - a) / (b - a))) : 0;
  return ch.s[j - 1]! + f * (ch.s[j]! - ch.s[j - 1]!);
}

/** Cut times (seconds since the lap's start) at rising positions, the first 0 and the last the lap time. */
export function timesAt(ch: LapChannels, cuts: readonly number[], seconds: number, lengthM: number): number[] {
  let last = 0;
  return cuts.map((c) => {
    // The line is where the lap was timed: its start and its end.
    if (c <= 0) return 0;
    if (c >= lengthM) return seconds;
    last = Math.min(seconds, Math.max(last, valueAtM(ch, ch.t, c)));
    return last;
  });
}

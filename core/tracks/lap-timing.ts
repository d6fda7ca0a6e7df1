import type { GpsColumns } from '../formats/gps-columns';
import { elapsedMs } from '../analysis/gps-analysis';
import { crossingFraction, planarGate, type Gate } from './gate';

/** The GPS fields lap timing reads. */
export type Trace = Pick<GpsColumns, 'count' | 'lat' | 'lon' | 'timeMs' | 'speed' | 'satellites'> &
  Partial<Pick<GpsColumns, 'heat' | 'roll'>>;

/** A moment on the trace between two samples: `index + fraction`, and its time. */
export interface TracePoint {
  /** The sample before the moment. */
  index: number;
  /** How far towards the next sample (0..1). */
  fraction: number;
  /** Ms since the trace's first sample (continuous across midnight). */
  ms: number;
}

/**
 * What a lap was, by what happened on track: an out-lap left the pits or a stop, a flying lap
 * crossed the line twice at speed, an in-lap ended in the pits or a stop, and a partial piece was
 * cut by the start or end of the recording, a gap or a stop inside it (never a lap time).
 */
export type LapKind = 'out' | 'flying' | 'in' | 'partial';

export interface TimedLap {
  /** 1-based, in the order ridden. */
  number: number;
  /** Which run of the day (a run ends where the rider stops or the device starts a new heat). */
  run: number;
  kind: LapKind;
  start: TracePoint;
  end: TracePoint;
  seconds: number;
  /** Starts and ends at the line (a piece before the first crossing, or after the last, does not). */
  complete: boolean;
}

/** Below this the bike is standing (GPS speed never reads exactly 0). */
const STILL_KMH = 3;

/** No lap is shorter: GPS jitter by the line makes no laps. */
export const MIN_LAP_MS = 20_000;
/** After a crossing, the trace must go this far from the gate before the next one counts. */
const ARM_DISTANCE_M = 100;
/** A pause in the samples this long starts a new run (out of the pits again). */
const RUN_GAP_MS = 60_000;

/** Standing still this long is a stop (the pits, a red flag): it ends a run, and the next one leaves from it. */
const STOP_MS = 5_000;
/**
 * A run whose first (or last) seconds go this slowly, or at under half the session's usual
 * crossing speed (pit-lane speed), left from (or came to) the pits or a stop.
 */
const FROM_STOP_KMH = 15;
const PIT_SHARE = 0.5;
const FROM_STOP_WINDOW_MS = 3_000;
/**
 * A crossing slower than this share of the session's usual crossing speed was not at speed: the
 * pit lane. A lap that ends there is an in-lap; one that starts there after other laps, an out-lap.
 */
const AT_SPEED_SHARE = 0.6;
/** Pieces before the first crossing or after the last shorter than this are no lap (a single-lap export's lead-in). */
const MIN_PIECE_MS = 5_000;
/** No fix for this long inside a lap: what happened there is unknown, the lap is a partial piece. */
const GAP_INSIDE_MS = 10_000;

/** Ms since the first sample for every sample (time of day rolls over at midnight). */
export function continuousTime(trace: Trace): Float64Array {
  const t = new Float64Array(trace.count);
  for (let i = 1; i < trace.count; i++) t[i] = t[i - 1]! + elapsedMs(trace.timeMs[i - 1]!, trace.timeMs[i]!);
  return t;
}

/** Fixes this close in time to a crossing each say when it happened. */
const CROSSING_WINDOW_MS = 250;

/**
 * When the trace crossed the line between fixes i-1 and i. Each fix near the line says when it
 * reached (or will reach) the line: its signed distance to the line at its own speed. Their mean
 * is the crossing time: each fix's position jitter counts for less, and a rider braking or
 * accelerating through the line is taken at the speeds measured there (time interpolated by
 * distance alone assumes one speed between the fixes). Without usable speeds, by distance.
 */
function crossingMs(
  trace: Trace,
  time: Float64Array,
  i: number,
  fraction: number,
  aheadM: (j: number) => number,
): number {
  const linear = time[i - 1]! + fraction * (time[i]! - time[i - 1]!);
  let sum = 0;
  let n = 0;
  for (let j = i - 1; j >= 0 && (j === i - 1 || linear - time[j]! <= CROSSING_WINDOW_MS); j--) {
    const v = trace.speed[j]! / 3.6;
    if (!(v > 0.5)) return linear;
    sum += time[j]! + (aheadM(j) / v) * 1000;
    n++;
  }
  for (let j = i; j < trace.count && (j === i || time[j]! - linear <= CROSSING_WINDOW_MS); j++) {
    const v = trace.speed[j]! / 3.6;
    if (!(v > 0.5)) return linear;
    sum += time[j]! + (aheadM(j) / v) * 1000;
    n++;
  }
  return Math.min(time[i]!, Math.max(time[i - 1]!, sum / n));
}

/** Forward crossings of the gate, interpolated between the two samples around each. */
export function gateCrossings(trace: Trace, gate: Gate, time: Float64Array): TracePoint[] {
  const g = planarGate(gate);
  const out: TracePoint[] = [];
  const forwardLength = Math.hypot(g.forward[0], g.forward[1]);
  /** How far fix j is before the line (negative: past it), along the gate's forward direction. */
  const aheadM = (j: number) => {
    const x = (trace.lon[j]! - g.proj.originLon) * g.proj.kx;
    const y = (trace.lat[j]! - g.proj.originLat) * g.proj.ky;
    return ((g.ax - x) * g.forward[0] + (g.ay - y) * g.forward[1]) / forwardLength;
  };
  let armed = true;
  const { kx, ky, originLat, originLon } = g.proj;
  let px = (trace.lon[0]! - originLon) * kx;
  let py = (trace.lat[0]! - originLat) * ky;
  for (let i = 1; i < trace.count; i++) {
    const qx = (trace.lon[i]! - originLon) * kx;
    const qy = (trace.lat[i]! - originLat) * ky;
    if (!armed && Math.hypot(qx, qy) > ARM_DISTANCE_M) armed = true;
    const f = armed ? crossingFraction(g, px, py, qx, qy) : undefined;
    if (f !== undefined) {
      const ms = crossingMs(trace, time, i, f, aheadM);
      const last = out[out.length - 1];
      if (!last || ms - last.ms >= MIN_LAP_MS) {
        out.push({ index: i - 1, fraction: f, ms });
        armed = false;
      }
    }
    px = qx;
    py = qy;
  }
  return out;
}

/** A stretch of riding: where it starts and ends (sample indices, end exclusive). */
export interface Run {
  from: number;
  to: number;
}

/** Whether the speed within the first (or last) seconds of a stretch was below `slowKmh`. */
function slowNear(trace: Trace, time: Float64Array, run: Run, atStart: boolean, slowKmh: number): boolean {
  const { from, to } = run;
  if (atStart) {
    for (let i = from; i < to && time[i]! - time[from]! <= FROM_STOP_WINDOW_MS; i++)
      if (trace.speed[i]! < slowKmh) return true;
  } else {
    for (let i = to - 1; i >= from && time[to - 1]! - time[i]! <= FROM_STOP_WINDOW_MS; i--)
      if (trace.speed[i]! < slowKmh) return true;
  }
  return false;
}

/**
 * Stretches of riding between `from` and `to`: cut by a pause in the recording or a new heat of
 * the device (longer than `gapMs`) and by standing still for `stillMs` or more (the still samples
 * belong to neither side).
 */
function stretches(trace: Trace, time: Float64Array, from: number, to: number, gapMs: number, stillMs: number): Run[] {
  const out: Run[] = [];
  const close = (a: number, b: number) => {
    if (b - a >= 2) out.push({ from: a, to: b });
  };
  let start = from;
  let stillFrom = -1;
  for (let i = from; i <= to; i++) {
    const cut =
      i > from &&
      i < to &&
      (time[i]! - time[i - 1]! > gapMs || (trace.heat !== undefined && trace.heat[i] !== trace.heat[i - 1]));
    if (cut) {
      close(start, stillFrom >= 0 ? stillFrom : i);
      start = i;
      stillFrom = -1;
    }
    if (i < to && trace.speed[i]! < STILL_KMH) {
      if (stillFrom < 0) stillFrom = i;
      continue;
    }
    // Standing counts from the last fix in motion (a logger may write nothing while the bike stands).
    if (stillFrom >= 0 && (i === to || time[i]! - time[Math.max(from, stillFrom - 1)]! >= stillMs)) {
      close(start, stillFrom);
      start = i;
    }
    stillFrom = -1;
    if (i === to) close(start, i);
  }
  return out;
}

/**
 * The runs of the day (heats), as sample ranges (`to` exclusive): cut by a pause in the recording,
 * a new heat, or a long stand in the pits (its samples in neither). `TimedLap.run` k is the k-th.
 */
export function runsOfDay(trace: Trace, time = continuousTime(trace)): Run[] {
  return stretches(trace, time, 0, trace.count, RUN_GAP_MS, RUN_GAP_MS);
}

const at = (index: number, time: Float64Array): TracePoint => ({ index, fraction: 0, ms: time[index]! });

/** The speed at a crossing, between the samples around it. */
const speedAt = (trace: Trace, c: TracePoint) =>
  trace.speed[c.index]! + c.fraction * (trace.speed[Math.min(trace.count - 1, c.index + 1)]! - trace.speed[c.index]!);

/** The longest stretch without a fix between two samples. */
function longestGapMs(time: Float64Array, from: number, to: number): number {
  let gap = 0;
  for (let i = from + 1; i <= to; i++) gap = Math.max(gap, time[i]! - time[i - 1]!);
  return gap;
}

/**
 * Laps from the gate crossings, stretch by stretch, each by what happened on track: before a stretch's
 * first crossing its out-lap (when it left a stop) or a partial piece (a recording that starts at
 * speed); between crossings flying laps, except one that starts at a crossing not at speed (out)
 * or ends at one (in), or holds a gap in the fixes (partial); after the last crossing its in-lap
 * (when it came to a stop) or a partial piece. Pieces shorter than MIN_PIECE_MS are left out.
 */
export function timeLaps(trace: Trace, gate: Gate, time = continuousTime(trace)): TimedLap[] {
  if (trace.count < 2) return [];
  const crossings = gateCrossings(trace, gate, time);
  const speeds = crossings.map((c) => speedAt(trace, c)).sort((a, b) => a - b);
  const usual = speeds.length ? speeds[speeds.length >> 1]! : 0;
  const atSpeed = (c: TracePoint) => speedAt(trace, c) >= AT_SPEED_SHARE * usual;
  const slowKmh = Math.max(FROM_STOP_KMH, PIT_SHARE * usual);
  const laps: TimedLap[] = [];
  // A run of the day (a heat) ends at a pause: the recording's, or a long stand in the pits.
  const runs = runsOfDay(trace, time);
  // Inside a run, a stop (the pits, a red flag) ends one stretch of riding and the next leaves from it.
  const ridden = runs.flatMap((r, run) =>
    stretches(trace, time, r.from, r.to, RUN_GAP_MS, STOP_MS).map((s) => ({ ...s, run })),
  );
  ridden.forEach((r) => {
    const { from, to, run } = r;
    const fromStop = slowNear(trace, time, r, true, slowKmh);
    const toStop = slowNear(trace, time, r, false, slowKmh);
    const inRun = crossings.filter((c) => c.index >= from && c.index + 1 < to);
    const push = (kind: LapKind, start: TracePoint, end: TracePoint, complete = false) =>
      laps.push({
        number: laps.length + 1,
        run: run + 1,
        kind,
        start,
        end,
        seconds: (end.ms - start.ms) / 1000,
        complete,
      });
    if (inRun.length === 0) {
      if (time[to - 1]! - time[from]! >= MIN_PIECE_MS)
        push(fromStop ? 'out' : 'partial', at(from, time), at(to - 1, time));
      return;
    }
    const first = inRun[0]!;
    const leftStopAtLine = first.ms - time[from]! < MIN_PIECE_MS && fromStop;
    if (first.ms - time[from]! >= MIN_PIECE_MS) push(fromStop ? 'out' : 'partial', at(from, time), first);
    for (let k = 1; k < inRun.length; k++) {
      const [a, b] = [inRun[k - 1]!, inRun[k]!];
      // A gap inside: line to line, but not known to be a lap (nothing is timed on it).
      if (longestGapMs(time, a.index, b.index + 1) > GAP_INSIDE_MS) push('partial', a, b);
      // The first lap is the out-lap when the stretch left the pits right at the line; where it
      // reached the line from the pits first, that piece was the out-lap and this one is a lap.
      else
        push(
          k === 1
            ? leftStopAtLine
              ? 'out'
              : !atSpeed(b)
                ? 'in'
                : 'flying'
            : !atSpeed(a)
              ? 'out'
              : !atSpeed(b)
                ? 'in'
                : 'flying',
          a,
          b,
          true,
        );
    }
    const last = inRun[inRun.length - 1]!;
    if (time[to - 1]! - last.ms >= MIN_PIECE_MS) push(toStop ? 'in' : 'partial', last, at(to - 1, time));
  });
  return laps;
}

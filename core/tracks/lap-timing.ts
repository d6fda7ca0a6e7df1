import type { GpsColumns } from '../formats/gps-columns';
import { elapsedMs } from '../analysis/gps-analysis';
import { crossingFraction, planarGate, type Gate } from './gate';

/** The GPS fields lap timing reads. */
export type Trace = Pick<GpsColumns, 'count' | 'lat' | 'lon' | 'timeMs' | 'speed' | 'satellites'> & Partial<Pick<GpsColumns, 'heat' | 'roll'>>;

/** A moment on the trace between two samples: `index + fraction`, and its time. */
export interface TracePoint {
  /** The sample before the moment. */
  index: number;
  /** How far towards the next sample (0..1). */
  fraction: number;
  /** Ms since the trace's first sample (continuous across midnight). */
  ms: number;
}

export type LapKind = 'out' | 'flying' | 'in';

export interface TimedLap {
  /** 1-based, in the order ridden. */
  number: number;
  /** Which run of the day (a run ends where the rider stops or the device starts a new heat). */
  run: number;
  kind: LapKind;
  start: TracePoint;
  end: TracePoint;
  seconds: number;
  /** Starts and ends at the line (an out-lap before the first crossing, or an in-lap after the last, does not). */
  complete: boolean;
}

export interface LapTimingOptions {
  /** No lap is shorter: GPS jitter by the line makes no laps. */
  minLapMs?: number;
  /** After a crossing, the trace must go this far from the gate before the next one counts. */
  armDistanceM?: number;
  /** A pause in the samples this long starts a new run (out of the pits again). */
  runGapMs?: number;
}

/** Below this the bike is standing (GPS speed never reads exactly 0). */
const STILL_KMH = 3;

const DEFAULTS: Required<LapTimingOptions> = { minLapMs: 20_000, armDistanceM: 100, runGapMs: 60_000 };
/**
 * A run's first complete lap this much slower than its best still held part of the way out of
 * the pits (the line lies beyond the pit exit); its last, the way in (a pit lane that crosses
 * the line, or a cool-down lap).
 */
const OUT_IN_SLOWER = 1.1;

/**
 * A piece before the first crossing or after the last shorter than this is no lap: the run
 * started (its first complete lap is then the out-lap) or ended at the line.
 */
const MIN_PIECE_MS = 5_000;

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
function crossingMs(trace: Trace, time: Float64Array, i: number, fraction: number, aheadM: (j: number) => number): number {
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
export function gateCrossings(trace: Trace, gate: Gate, time: Float64Array, options: LapTimingOptions = {}): TracePoint[] {
  const { minLapMs, armDistanceM } = { ...DEFAULTS, ...options };
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
    if (!armed && Math.hypot(qx, qy) > armDistanceM) armed = true;
    const f = armed ? crossingFraction(g, px, py, qx, qy) : undefined;
    if (f !== undefined) {
      const ms = crossingMs(trace, time, i, f, aheadM);
      const last = out[out.length - 1];
      if (!last || ms - last.ms >= minLapMs) {
        out.push({ index: i - 1, fraction: f, ms });
        armed = false;
      }
    }
    px = qx;
    py = qy;
  }
  return out;
}

/** Where each run starts and ends (sample indices, end exclusive). */
function runsOf(trace: Trace, time: Float64Array, runGapMs: number): [number, number][] {
  const runs: [number, number][] = [];
  let start = 0;
  // A logger that keeps writing while the bike stands (a SpeedAngle does): standing still as long as a gap also ends the run.
  let stillFrom = -1;
  for (let i = 1; i <= trace.count; i++) {
    // A pause in the recording or a new heat ends the run even where the next fix stands still.
    const cut = i < trace.count && (time[i]! - time[i - 1]! > runGapMs || (trace.heat !== undefined && trace.heat[i] !== trace.heat[i - 1]));
    if (i < trace.count && !cut && trace.speed[i]! < STILL_KMH) {
      if (stillFrom < 0) stillFrom = i;
      continue;
    }
    const stood = stillFrom >= 0 && i < trace.count && time[i]! - time[stillFrom]! > runGapMs;
    const newRun = i === trace.count || stood || cut;
    if (newRun) {
      const end = stood ? stillFrom : i;
      if (end > start) runs.push([start, end]);
      start = i;
    }
    stillFrom = -1;
  }
  return runs;
}

const at = (index: number, time: Float64Array): TracePoint => ({ index, fraction: 0, ms: time[index]! });

/**
 * Laps from the gate crossings, run by run: before a run's first crossing its out-lap, after the
 * last its in-lap, flying laps between. A run that starts at the line, or whose first complete
 * lap is much slower than its best, has that lap as its out-lap; a much slower last lap is the
 * in-lap.
 */
export function timeLaps(trace: Trace, gate: Gate, options: LapTimingOptions = {}, time = continuousTime(trace)): TimedLap[] {
  const opts = { ...DEFAULTS, ...options };
  if (trace.count < 2) return [];
  const crossings = gateCrossings(trace, gate, time, opts);
  const laps: TimedLap[] = [];
  runsOf(trace, time, opts.runGapMs).forEach(([from, to], run) => {
    const inRun = crossings.filter((c) => c.index >= from && c.index + 1 < to);
    const push = (kind: LapKind, start: TracePoint, end: TracePoint, complete = false) =>
      laps.push({ number: laps.length + 1, run: run + 1, kind, start, end, seconds: (end.ms - start.ms) / 1000, complete });
    if (inRun.length === 0) {
      push('out', at(from, time), at(to - 1, time));
      return;
    }
    const first = inRun[0]!;
    const startedAtLine = first.ms - time[from]! < MIN_PIECE_MS;
    if (!startedAtLine) push('out', at(from, time), first);
    const complete: TimedLap[] = [];
    for (let k = 1; k < inRun.length; k++) {
      push(k === 1 && startedAtLine ? 'out' : 'flying', inRun[k - 1]!, inRun[k]!, true);
      complete.push(laps[laps.length - 1]!);
    }
    const best = Math.min(...complete.map((l) => l.seconds));
    const [firstLap] = complete;
    const lastLap = complete[complete.length - 1];
    if (complete.length > 1 && firstLap!.seconds > best * OUT_IN_SLOWER) firstLap!.kind = 'out';
    if (complete.length > 1 && lastLap!.seconds > best * OUT_IN_SLOWER) lastLap!.kind = 'in';
    const last = inRun[inRun.length - 1]!;
    if (time[to - 1]! - last.ms >= MIN_PIECE_MS) push('in', last, at(to - 1, time));
  });
  return laps;
}

import { positionsAlong } from './lap-positions';
import type { TimedLap, Trace } from './lap-timing';
import type { TrackLine } from './track-line';

/** Metres between two points of a lap on the grid: 1,000 points for a 5 km track. */
export const GRID_STEP_M = 5;

export interface LapOnGrid {
  /** Metres along the track's line from the start/finish. */
  x: number[];
  speed: (number | null)[];
  lean: (number | null)[];
  /** Seconds since the lap began, at each position. */
  elapsed: (number | null)[];
}

/**
 * A complete lap against position along the track's line (each fix projected onto it), on a
 * fixed grid: two laps of any sessions, devices or lines at one track compare point for point.
 * Where the lap went backwards along the line (a fix off to the side), the furthest position so
 * far is kept, so positions only rise.
 */
export function lapOnGrid(
  trace: Trace,
  time: Float64Array,
  line: TrackLine,
  lap: TimedLap,
  step = GRID_STEP_M,
): LapOnGrid {
  const from = lap.start.index;
  const to = Math.min(trace.count - 1, lap.end.index + 1);
  const raw = positionsAlong(line, trace, from, to);
  const along = new Float64Array(raw.length);
  let furthest = -Infinity;
  for (let k = 0; k < raw.length; k++) along[k] = furthest = Math.max(furthest, raw[k]!);
  const n = Math.floor(line.length / step) + 1;
  const x: number[] = [];
  const speed: (number | null)[] = [];
  const lean: (number | null)[] = [];
  const elapsed: (number | null)[] = [];
  let k = 0;
  for (let g = 0; g < n; g++) {
    const d = g * step;
    x.push(d);
    while (k < along.length - 2 && along[k + 1]! < d) k++;
    const d0 = along[k]!;
    const d1 = along[k + 1] ?? d0;
    if (d < d0 || d > d1) {
      speed.push(null);
      lean.push(null);
      elapsed.push(null);
      continue;
    }
    const f = d1 > d0 ? (d - d0) / (d1 - d0) : 0;
    const i = from + k;
    const at = (v: ArrayLike<number>) => v[i]! + (v[i + 1]! - v[i]!) * f;
    speed.push(round(at(trace.speed), 1));
    lean.push(trace.roll ? round(at(trace.roll), 1) : null);
    elapsed.push(round((at(time) - lap.start.ms) / 1000, 3));
  }
  return { x, speed, lean, elapsed };
}

/** Seconds a lap is behind a reference at each position of the grid (positive: slower); null where either has no figure. */
export function deltaOnGrid(lap: LapOnGrid, reference: LapOnGrid): (number | null)[] {
  return lap.elapsed.map((e, g) => {
    const r = reference.elapsed[g];
    return e === null || r === null || r === undefined ? null : round(e - r, 3);
  });
}

function round(v: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

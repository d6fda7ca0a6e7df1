import { makeProjection } from '../geo';
import type { Trace } from './lap-timing';
import { nearestOnPolyline } from './track-line';

/** A trace sample this far from an outline is off it (track width, a rough outline, GPS error). */
const ON_OUTLINE_M = 35;
/** Samples slower than this are left out of a fit: paddock and pit lane. */
const MOVING_KMH = 30;
/** Enough samples to judge a fit, spread over the whole trace. */
const FIT_SAMPLES = 300;

export interface OutlineFit {
  /** Share of the moving samples within ON_OUTLINE_M of the outline (0..1). */
  onShare: number;
  /** Mean distance of those within, metres. */
  meanDistanceM: number;
  /** Share of the outline's points the trace passes within ON_OUTLINE_M of (0..1): a shorter layout inside a bigger outline covers less of it. */
  coverage: number;
  /** Whether the trace runs the way the outline's points go. */
  forward: boolean;
}

/** Indices of up to FIT_SAMPLES moving samples, evenly spread. */
export function movingSamples(trace: Trace): number[] {
  // Counted first, then picked: a list of every moving sample would be a million numbers.
  let moving = 0;
  for (let i = 0; i < trace.count; i++) if (trace.speed[i]! >= MOVING_KMH) moving++;
  const step = Math.max(1, Math.floor(moving / FIT_SAMPLES));
  const picked: number[] = [];
  for (let i = 0, k = 0; i < trace.count; i++) if (trace.speed[i]! >= MOVING_KMH && k++ % step === 0) picked.push(i);
  return picked;
}

/** How well a trace runs along a closed outline ([lat, lon] points), and in which direction. */
export function fitOutline(
  trace: Trace,
  outline: readonly (readonly [number, number])[],
  samples = movingSamples(trace),
): OutlineFit {
  if (!samples.length || outline.length < 2) return { onShare: 0, meanDistanceM: Infinity, coverage: 0, forward: true };
  const proj = makeProjection(outline[0]![0], outline[0]![1]);
  const xy = outline.map(([lat, lon]) => proj.toXY(lat, lon));
  let on = 0;
  let distance = 0;
  let along = 0;
  for (const i of samples) {
    const [px, py] = proj.toXY(trace.lat[i]!, trace.lon[i]!);
    const near = nearestOnPolyline(xy, px, py);
    if (near.distance > ON_OUTLINE_M) continue;
    on++;
    distance += near.distance;
    const next = Math.min(trace.count - 1, i + 1);
    const [qx, qy] = proj.toXY(trace.lat[next]!, trace.lon[next]!);
    const a = xy[near.segment]!;
    const b = xy[(near.segment + 1) % xy.length]!;
    along += Math.sign((qx - px) * (b[0] - a[0]) + (qy - py) * (b[1] - a[1]));
  }
  const points = samples.map((i) => proj.toXY(trace.lat[i]!, trace.lon[i]!));
  // Twice as far: the samples are spread along the trace, tens of metres apart.
  const reach = 2 * ON_OUTLINE_M;
  const covered = xy.filter(([x, y]) =>
    points.some(([px, py]) => Math.abs(px - x) <= reach && Math.abs(py - y) <= reach),
  ).length;
  return {
    onShare: on / samples.length,
    meanDistanceM: on ? distance / on : Infinity,
    coverage: covered / xy.length,
    forward: along >= 0,
  };
}

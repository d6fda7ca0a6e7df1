import { gateAcross, type Gate, type LatLon } from './gate';
import type { Trace } from './lap-timing';
import { makeProjection } from '../sim/geo';

/**
 * A start/finish gate for a trace at a place the catalogue does not know: across the trace where
 * it is fastest, which is on the fastest straight, crossed once a lap. Undefined for a trace
 * that never moves.
 */
export function derivedStartFinish(trace: Trace): { gate: Gate; at: LatLon } | undefined {
  let top = -1;
  for (let i = 1; i < trace.count - 1; i++) if (top < 0 || trace.speed[i]! > trace.speed[top]!) top = i;
  if (top < 0 || !(trace.speed[top]! > 0)) return undefined;
  const at = { lat: trace.lat[top]!, lon: trace.lon[top]! };
  const proj = makeProjection(at.lat, at.lon);
  // The heading over a second or so either side: a single fix's jitter could tilt the gate.
  const span = 5;
  const [ax, ay] = proj.toXY(trace.lat[Math.max(0, top - span)]!, trace.lon[Math.max(0, top - span)]!);
  const [bx, by] = proj.toXY(trace.lat[Math.min(trace.count - 1, top + span)]!, trace.lon[Math.min(trace.count - 1, top + span)]!);
  return { gate: gateAcross(at, bx - ax, by - ay), at };
}

/** A catalogue circuit's start/finish point as a gate, across its outline, facing the way the trace drives it. */
export function catalogueStartFinish(outline: readonly (readonly [number, number])[], point: readonly [number, number], forward: boolean): Gate {
  const proj = makeProjection(point[0], point[1]);
  const xy = outline.map(([lat, lon]) => proj.toXY(lat, lon));
  let best = 0;
  let bestD = Infinity;
  xy.forEach(([x, y], i) => {
    const d = x * x + y * y;
    if (d < bestD) [best, bestD] = [i, d];
  });
  const before = xy[(best - 1 + xy.length) % xy.length]!;
  const after = xy[(best + 1) % xy.length]!;
  const sign = forward ? 1 : -1;
  return gateAcross({ lat: point[0], lon: point[1] }, sign * (after[0] - before[0]), sign * (after[1] - before[1]));
}

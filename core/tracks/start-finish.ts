import { gateAcross, type Gate, type LatLon } from './gate';
import type { Trace } from './lap-timing';
import { makeProjection } from '../geo';
import { nearestOnPolyline } from './track-line';

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
  const [bx, by] = proj.toXY(
    trace.lat[Math.min(trace.count - 1, top + span)]!,
    trace.lon[Math.min(trace.count - 1, top + span)]!,
  );
  return { gate: gateAcross(at, bx - ax, by - ay), at };
}

/**
 * A catalogue circuit's start/finish as a gate: across its outline where the point meets it (the
 * nearest point of the outline, on a segment), square to that segment, facing the way the trace
 * drives it. A point beside the track (a catalogue's can be 20 m off) still gives a gate across it.
 */
export function catalogueStartFinish(
  outline: readonly (readonly [number, number])[],
  point: readonly [number, number],
  forward: boolean,
): Gate {
  const proj = makeProjection(point[0], point[1]);
  const xy = outline.map(([lat, lon]) => proj.toXY(lat, lon));
  const { segment, t } = nearestOnPolyline(xy, 0, 0);
  const a = xy[segment]!;
  const b = xy[(segment + 1) % xy.length]!;
  const [lat, lon] = proj.toLatLon(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t);
  const sign = forward ? 1 : -1;
  return gateAcross({ lat, lon }, sign * (b[0] - a[0]), sign * (b[1] - a[1]));
}

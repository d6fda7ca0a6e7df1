// Timing lines (gates): placing one across a track, and where a trace crosses it.
import { makeProjection } from '../geo';

export interface LatLon {
  lat: number;
  lon: number;
}

/**
 * A timing line across the track: `a` on the rider's left, `b` on the right, so the driving
 * direction is a→b turned a quarter left. A lap ends where the trace crosses it going forward.
 */
export interface Gate {
  a: LatLon;
  b: LatLon;
}

/** Half the width of a gate placed from a point: the track, its kerbs and a catalogue point's offset. */
const GATE_HALF_WIDTH_M = 25;

/** A gate through `center`, across the heading (metres east, north; any length). */
export function gateAcross(
  center: LatLon,
  headingEast: number,
  headingNorth: number,
  halfWidthM = GATE_HALF_WIDTH_M,
): Gate {
  const norm = Math.hypot(headingEast, headingNorth) || 1;
  const [ex, ny] = [headingEast / norm, headingNorth / norm];
  const proj = makeProjection(center.lat, center.lon);
  // Left of the heading is (-north, east).
  const [aLat, aLon] = proj.toLatLon(-ny * halfWidthM, ex * halfWidthM);
  const [bLat, bLon] = proj.toLatLon(ny * halfWidthM, -ex * halfWidthM);
  return { a: { lat: aLat, lon: aLon }, b: { lat: bLat, lon: bLon } };
}

/** The gate in a local plane (metres) around its centre, with its forward direction. */
export function planarGate(gate: Gate) {
  const lat0 = (gate.a.lat + gate.b.lat) / 2;
  const lon0 = (gate.a.lon + gate.b.lon) / 2;
  const proj = makeProjection(lat0, lon0);
  const [ax, ay] = proj.toXY(gate.a.lat, gate.a.lon);
  const [bx, by] = proj.toXY(gate.b.lat, gate.b.lon);
  const dx = bx - ax;
  const dy = by - ay;
  return { proj, ax, ay, dx, dy, lengthM: Math.hypot(dx, dy), forward: [-dy, dx] as const };
}

/**
 * Where the move p→q crosses the gate going forward, as a fraction of the move (0..1), or
 * undefined. Points in the gate's plane (metres).
 */
export function crossingFraction(
  g: ReturnType<typeof planarGate>,
  px: number,
  py: number,
  qx: number,
  qy: number,
): number | undefined {
  const mx = qx - px;
  const my = qy - py;
  // Forward only: the move must go the way the gate faces.
  if (mx * g.forward[0] + my * g.forward[1] <= 0) return undefined;
  const denom = mx * g.dy - my * g.dx;
  if (denom === 0) return undefined;
  // p + t·m = a + u·d  →  t along the move, u along the gate.
  const t = ((g.ax - px) * g.dy - (g.ay - py) * g.dx) / denom;
  const u = ((g.ax - px) * my - (g.ay - py) * mx) / denom;
  if (t < 0 || t >= 1 || u < 0 || u > 1) return undefined;
  return t;
}

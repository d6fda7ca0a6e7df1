import { makeProjection } from '../geo';
import type { LatLon } from './gate';

/**
 * A track's line in a local plane (metres east and north of its first point), resampled every
 * STEP_M metres and closed: what corners, cuts and positions along the track are measured on.
 */
export interface TrackLine {
  proj: ReturnType<typeof makeProjection>;
  x: Float64Array;
  y: Float64Array;
  /** Distance from the start of the line at each point (x[0], y[0] is at 0). */
  s: Float64Array;
  length: number;
}

const STEP_M = 2;

/** Resamples a closed outline ([lat, lon] points, first not repeated) every STEP_M metres, from `start`. */
export function trackLine(points: readonly (readonly [number, number])[], start?: LatLon, step = STEP_M): TrackLine {
  let pts = points.slice();
  const first = pts[0]!;
  const last = pts[pts.length - 1]!;
  if (pts.length > 1 && first[0] === last[0] && first[1] === last[1]) pts = pts.slice(0, -1);
  const proj = makeProjection(pts[0]![0], pts[0]![1]);
  let xy = pts.map(([lat, lon]) => proj.toXY(lat, lon));
  if (start) {
    // Begin at the point of the outline nearest the start (on a segment, not only at a vertex).
    const [sx, sy] = proj.toXY(start.lat, start.lon);
    const { segment, t } = nearestOnPolyline(xy, sx, sy);
    const a = xy[segment]!;
    const b = xy[(segment + 1) % xy.length]!;
    const at: [number, number] = [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
    xy = [at, ...xy.slice(segment + 1), ...xy.slice(0, segment + 1)];
  }
  const { x, y, s, length } = resampleClosed(xy, step);
  return { proj, x, y, s, length };
}

/** A closed polyline (points in metres, first not repeated) resampled every ~`step` metres from its first point. */
function resampleClosed(xy: readonly (readonly [number, number])[], step: number) {
  const m = xy.length;
  const cum = new Float64Array(m + 1);
  for (let i = 0; i < m; i++) {
    const [ax, ay] = xy[i]!;
    const [bx, by] = xy[(i + 1) % m]!;
    cum[i + 1] = cum[i]! + Math.hypot(bx - ax, by - ay);
  }
  const total = cum[m]!;
  const n = Math.max(3, Math.round(total / step));
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  const s = new Float64Array(n);
  let seg = 0;
  for (let k = 0; k < n; k++) {
    const d = (k * total) / n;
    while (cum[seg + 1]! < d) seg++;
    const t = (d - cum[seg]!) / (cum[seg + 1]! - cum[seg]! || 1);
    const [ax, ay] = xy[seg]!;
    const [bx, by] = xy[(seg + 1) % m]!;
    x[k] = ax + (bx - ax) * t;
    y[k] = ay + (by - ay) * t;
    s[k] = d;
  }
  return { x, y, s, length: total };
}

/** The nearest point of a closed polyline to (px, py): its segment and the fraction along it. */
export function nearestOnPolyline(
  xy: readonly (readonly [number, number])[],
  px: number,
  py: number,
): { segment: number; t: number; distance: number } {
  let best = { segment: 0, t: 0, distance: Infinity };
  for (let i = 0; i < xy.length; i++) {
    const [ax, ay] = xy[i]!;
    const [bx, by] = xy[(i + 1) % xy.length]!;
    const dx = bx - ax;
    const dy = by - ay;
    const len2 = dx * dx + dy * dy;
    const t = len2 ? Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2)) : 0;
    const distance = Math.hypot(ax + dx * t - px, ay + dy * t - py);
    if (distance < best.distance) best = { segment: i, t, distance };
  }
  return best;
}

/** Direction of travel at point k (metres east, north), over a few points either side. */
export function headingAt(line: TrackLine, k: number, span = 5): [number, number] {
  const n = line.x.length;
  const a = (k - span + n) % n;
  const b = (k + span) % n;
  return [line.x[b]! - line.x[a]!, line.y[b]! - line.y[a]!];
}

/** [lat, lon] of point k. */
export function latLonAt(line: TrackLine, k: number): LatLon {
  const [lat, lon] = line.proj.toLatLon(line.x[k]!, line.y[k]!);
  return { lat, lon };
}

/** Moving average over `half` points either side, around a closed line. */
export function circularSmooth(a: Float64Array, half: number): Float64Array {
  const n = a.length;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let sum = 0;
    for (let k = -half; k <= half; k++) sum += a[(i + k + n) % n]!;
    out[i] = sum / (2 * half + 1);
  }
  return out;
}

/**
 * Signed curvature (1/metres, positive turning left) of a closed line at each point, through the
 * points `span` either side, smoothed over as many: an outline's corners are polygons, and a
 * curvature from neighbours alone would be a spike at each vertex.
 */
export function curvature(x: Float64Array, y: Float64Array, span = 8): Float64Array {
  const n = x.length;
  const raw = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const a = (i - span + n) % n;
    const c = (i + span) % n;
    const ax = x[i]! - x[a]!;
    const ay = y[i]! - y[a]!;
    const bx = x[c]! - x[i]!;
    const by = y[c]! - y[i]!;
    const cross = ax * by - ay * bx;
    const la = Math.hypot(ax, ay);
    const lb = Math.hypot(bx, by);
    const lc = Math.hypot(x[c]! - x[a]!, y[c]! - y[a]!);
    raw[i] = la && lb && lc ? (2 * cross) / (la * lb * lc) : 0;
  }
  return circularSmooth(raw, span);
}

/**
 * Whether a timing line really lies across the track: its middle on the line (within `nearM`) and
 * at least 45° to the direction of travel there. Loggers that write a "line" as two points along
 * the straight make one a noisy trace would cross back and forth.
 */
export function liesAcross(line: TrackLine, gate: { a: LatLon; b: LatLon }, nearM = 30): boolean {
  const [ax, ay] = line.proj.toXY(gate.a.lat, gate.a.lon);
  const [bx, by] = line.proj.toXY(gate.b.lat, gate.b.lon);
  const xy = Array.from(line.x, (x, k) => [x, line.y[k]!] as const);
  const near = nearestOnPolyline(xy, (ax + bx) / 2, (ay + by) / 2);
  if (near.distance > nearM) return false;
  const [hx, hy] = headingAt(line, near.segment);
  const [gx, gy] = [bx - ax, by - ay];
  const sin = Math.abs(hx * gy - hy * gx) / (Math.hypot(hx, hy) * Math.hypot(gx, gy) || 1);
  return sin >= Math.SQRT1_2;
}

import type { TrackLine } from './track-line';
import type { Trace, TracePoint } from './lap-timing';

/**
 * Where each fix of a lap lies along the track: metres from the start/finish along the track's
 * line (projected onto it, so a wider line or another device's GPS offset do not shift it),
 * continuous over the lap (from a little below 0 before the line to about the line's length).
 */
export function positionsAlong(line: TrackLine, trace: Trace, from: number, to: number): Float64Array {
  const out = new Float64Array(to - from + 1);
  const { proj } = line;
  let hint = -1;
  let previous = 0;
  for (let i = from; i <= to; i++) {
    const px = (trace.lon[i]! - proj.originLon) * proj.kx;
    const py = (trace.lat[i]! - proj.originLat) * proj.ky;
    // The first fix is looked for along the whole line; each next one from where the last was,
    // downhill (a fix moves on by a few points of the line, and near a hairpin's other side the
    // nearest point overall could be the wrong one).
    const k = hint < 0 ? nearestOf(line, px, py) : downhill(line, px, py, hint);
    hint = k;
    // Onto the segment either side of the nearest point, for better than the line's 2 m steps.
    const s = refine(line, k, px, py);
    let along = s;
    if (i === from) along = s > line.length / 2 ? s - line.length : s;
    else {
      while (along - previous > line.length / 2) along -= line.length;
      while (previous - along > line.length / 2) along += line.length;
    }
    out[i - from] = along;
    previous = along;
  }
  return out;
}

function nearestOf(line: TrackLine, px: number, py: number): number {
  let best = 0;
  for (let k = 1; k < line.x.length; k++) if (distance2(line, k, px, py) < distance2(line, best, px, py)) best = k;
  return best;
}

function downhill(line: TrackLine, px: number, py: number, from: number): number {
  const n = line.x.length;
  let k = from;
  let d = distance2(line, k, px, py);
  for (
    let next = (k + 1) % n, dn = distance2(line, next, px, py);
    dn < d;
    next = (k + 1) % n, dn = distance2(line, next, px, py)
  ) {
    k = next;
    d = dn;
  }
  for (
    let prev = (k - 1 + n) % n, dp = distance2(line, prev, px, py);
    dp < d;
    prev = (k - 1 + n) % n, dp = distance2(line, prev, px, py)
  ) {
    k = prev;
    d = dp;
  }
  return k;
}

function distance2(line: TrackLine, k: number, px: number, py: number): number {
  return (line.x[k]! - px) ** 2 + (line.y[k]! - py) ** 2;
}

function refine(line: TrackLine, k: number, px: number, py: number): number {
  const n = line.x.length;
  const prev = (k - 1 + n) % n;
  const next = (k + 1) % n;
  const tBefore = along(line, prev, k, px, py);
  const tAfter = along(line, k, next, px, py);
  const onBefore = gap2(line, prev, k, tBefore, px, py) < gap2(line, k, next, tAfter, px, py);
  const s = onBefore ? line.s[prev]! + tBefore * (line.length / n) : line.s[k]! + tAfter * (line.length / n);
  return s % line.length;
}

/** How far along the line's segment a→b (0..1) is the point nearest (px, py). */
function along(line: TrackLine, a: number, b: number, px: number, py: number): number {
  const dx = line.x[b]! - line.x[a]!;
  const dy = line.y[b]! - line.y[a]!;
  return Math.max(0, Math.min(1, ((px - line.x[a]!) * dx + (py - line.y[a]!) * dy) / (dx * dx + dy * dy || 1)));
}

/** Squared distance from (px, py) to the point `t` of the way along a→b. */
function gap2(line: TrackLine, a: number, b: number, t: number, px: number, py: number): number {
  return (
    (line.x[a]! + (line.x[b]! - line.x[a]!) * t - px) ** 2 + (line.y[a]! + (line.y[b]! - line.y[a]!) * t - py) ** 2
  );
}

/**
 * The moments a lap passed each of `cuts` (metres along the line, increasing, inside the lap),
 * interpolated between the fixes around each; never before the previous one. With the lap's
 * start and end, the pieces between add up to the lap time exactly.
 */
export function cutTimes(
  positions: Float64Array,
  time: Float64Array,
  from: number,
  start: TracePoint,
  end: TracePoint,
  cuts: readonly number[],
): number[] {
  const out: number[] = [];
  let j = 1;
  let last = start.ms;
  for (const cut of cuts) {
    while (j < positions.length && positions[j]! < cut) j++;
    let ms: number;
    if (j >= positions.length) ms = end.ms;
    else {
      const s0 = positions[j - 1]!;
      const s1 = positions[j]!;
      const f = s1 > s0 ? Math.max(0, Math.min(1, (cut - s0) / (s1 - s0))) : 0;
      ms = time[from + j - 1]! + f * (time[from + j]! - time[from + j - 1]!);
    }
    last = Math.min(end.ms, Math.max(last, ms));
    out.push(last);
  }
  return out;
}

/** Metres left (positive) or right of the track's line of a fix at `s` metres along it. */
export function lateralOffset(line: TrackLine, lat: number, lon: number, s: number): number {
  const n = line.x.length;
  const at = ((Math.round(s / (line.length / n)) % n) + n) % n;
  const px = (lon - line.proj.originLon) * line.proj.kx;
  const py = (lat - line.proj.originLat) * line.proj.ky;
  const next = (at + 1) % n;
  const prev = (at - 1 + n) % n;
  const dx = line.x[next]! - line.x[prev]!;
  const dy = line.y[next]! - line.y[prev]!;
  return (dx * (py - line.y[at]!) - dy * (px - line.x[at]!)) / (Math.hypot(dx, dy) || 1);
}

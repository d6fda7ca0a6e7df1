/**
 * The line an imported file's logger timed its laps at, found on the trace: the gate or point the
 * file names, or where its laps really end; and the logger's own lap that is one of Voltas's.
 */
import { gateAcross, type Gate, type LatLon } from '../tracks/gate';
import { timeLaps, type TimedLap, type Trace } from '../tracks/lap-timing';
import { headingAt, liesAcross, nearestOnPolyline, type TrackLine } from '../tracks/track-line';
import type { LoggerLap } from './trace';

/** How far from the track's line a logger's start/finish point may be and still be its line there (a pit lane beside the straight). */
const OWN_LINE_NEAR_M = 60;
/** A line's half-width beyond the point: the logger's line reaches both the track and the point. */
const OWN_LINE_MARGIN_M = 15;
const GATE_HALF_WIDTH_M = 25;
/** A logger's lap and Voltas's are the same lap when they end within this of each other. */
const SAME_END_MS = 2_000;
/** A logger's lap end between fixes further apart than this (a pause without a fix) says not where it was. */
const LAP_END_GAP_MS = 2_500;

/**
 * A line across the track at segment k (t of the way to the next point), wide enough to reach
 * `reachM` from it (a logger's line in the pit lane beside the straight times the laps through the
 * pits there too).
 */
function gateOnLine(line: TrackLine, k: number, t: number, reachM: number): Gate {
  const next = (k + 1) % line.x.length;
  const x = line.x[k]! + (line.x[next]! - line.x[k]!) * t;
  const y = line.y[k]! + (line.y[next]! - line.y[k]!) * t;
  const [lat, lon] = line.proj.toLatLon(x, y);
  const [east, north] = headingAt(line, k);
  return gateAcross({ lat, lon }, east, north, Math.max(GATE_HALF_WIDTH_M, reachM + OWN_LINE_MARGIN_M));
}

const polyline = (line: TrackLine) => Array.from(line.x, (x, k) => [x, line.y[k]!] as const);

/**
 * A logger's start/finish as a line across the track (its file names a point: TrackAddict's `#
 * End Point`): through the point of the track's line nearest it, across the line's heading there,
 * wide enough to reach the point. Undefined where the point is not by the track.
 */
function loggerLine(point: LatLon, line: TrackLine): Gate | undefined {
  const [px, py] = line.proj.toXY(point.lat, point.lon);
  const near = nearestOnPolyline(polyline(line), px, py);
  return near.distance > OWN_LINE_NEAR_M ? undefined : gateOnLine(line, near.segment, near.t, near.distance);
}

/**
 * The point of the track's line nearest (px, py) where the line runs the way the rider went (dx,
 * dy): where two stretches of the track pass close by (a hairpin's two sides, the pit lane beside
 * the straight), the one the rider was on.
 */
function nearestGoingWay(line: TrackLine, px: number, py: number, dx: number, dy: number) {
  let best: { segment: number; t: number; distance: number } | undefined;
  const n = line.x.length;
  for (let k = 0; k < n; k++) {
    const [ax, ay, bx, by] = [line.x[k]!, line.y[k]!, line.x[(k + 1) % n]!, line.y[(k + 1) % n]!];
    const [ex, ey] = [bx - ax, by - ay];
    const len2 = ex * ex + ey * ey;
    if (!len2 || ex * dx + ey * dy <= 0) continue;
    const t = Math.max(0, Math.min(1, ((px - ax) * ex + (py - ay) * ey) / len2));
    const distance = Math.hypot(ax + ex * t - px, ay + ey * t - py);
    if (!best || distance < best.distance) best = { segment: k, t, distance };
  }
  return best;
}

/**
 * The line where the logger's laps really end on the trace: where the GPS was when each lap of
 * its ended (between the two fixes around that moment; none across a pause without a fix), at the
 * median of those places along the track's line (of an even number, either middle one: each is
 * a place a lap really ended), wide enough to reach the farthest of them. A
 * phone's app may cut its laps well before the point it names (TrackAddict at the Spreewaldring:
 * 70-100 m before its End Point, in the pit lane): the line it named times none of them.
 */
function linesWhereLapsEnd(line: TrackLine, trace: Trace, logger: readonly LoggerLap[]): Gate[] {
  const step = line.length / line.x.length;
  const places: { s: number; d: number }[] = [];
  const t = trace.timeMs;
  for (const { endMs } of logger) {
    if (endMs === undefined) continue;
    // The first fix at or after the lap's end (times in order).
    let i = 0;
    for (let hi = trace.count; i < hi;) {
      const m = (i + hi) >> 1;
      if (t[m]! < endMs) i = m + 1;
      else hi = m;
    }
    if (i === 0 || i === trace.count || t[i]! - t[i - 1]! > LAP_END_GAP_MS) continue;
    const f = (endMs - t[i - 1]!) / (t[i]! - t[i - 1]!);
    const [ax, ay] = line.proj.toXY(trace.lat[i - 1]!, trace.lon[i - 1]!);
    const [bx, by] = line.proj.toXY(trace.lat[i]!, trace.lon[i]!);
    const near = nearestGoingWay(line, ax + (bx - ax) * f, ay + (by - ay) * f, bx - ax, by - ay);
    if (near && near.distance <= OWN_LINE_NEAR_M) places.push({ s: (near.segment + near.t) * step, d: near.distance });
  }
  if (!places.length) return [];
  // Along a closed line: each place taken as the nearest way round from the first (they lie together).
  const from = places[0]!.s;
  const along = places
    .map(({ s }) => from + ((((s - from) % line.length) + 1.5 * line.length) % line.length) - line.length / 2)
    .sort((a, b) => a - b);
  const mid = along.length >> 1;
  const reach = Math.max(...places.map((p) => p.d));
  return (along.length % 2 ? [along[mid]!] : [along[mid - 1]!, along[mid]!]).map((median) => {
    const at = (((median / step) % line.x.length) + line.x.length) % line.x.length;
    const k = Math.floor(at);
    return gateOnLine(line, k, at - k, reach);
  });
}

/**
 * The line a file's logger timed its laps at, where the file names it (a gate that lies across the
 * track, either way round, as SpeedAngle's plan or a VBO's; or a point, loggerLine) and the GPS
 * timed there gives at least half of the logger's laps (each ending where the logger's does, in
 * its time); else the line where its laps really end on the trace (linesWhereLapsEnd), on the same
 * terms. A line the logger did not time at is not made the session's.
 */
export function ownLine(
  named: { gate?: Gate; point?: LatLon },
  line: TrackLine,
  trace: Trace,
  logger: readonly LoggerLap[],
): Gate | undefined {
  if (!trace.count || !logger.length) return undefined;
  const g = named.gate;
  const point = named.point && loggerLine(named.point, line);
  const candidates = g ? (liesAcross(line, g) ? [g, { a: g.b, b: g.a }] : []) : point ? [point] : [];
  const pairs = (gate: Gate) => {
    const laps = timeLaps(trace, gate).filter((l) => l.complete);
    const paired = logger.filter((own) => laps.some((l) => loggerTwin(l, trace.timeMs[0]!, [own])));
    return paired.length * 2 >= logger.length;
  };
  return candidates.find(pairs) ?? linesWhereLapsEnd(line, trace, logger).find(pairs);
}

/** The logger's own lap that ends where this one does, if its file times laps. */
export function loggerTwin(lap: TimedLap, startMs: number, logger: readonly LoggerLap[]): LoggerLap | undefined {
  const end = startMs + lap.end.ms;
  return logger.find(
    (l) => l.endMs !== undefined && Math.abs(l.endMs - end) <= SAME_END_MS && Math.abs(l.seconds - lap.seconds) < 1,
  );
}

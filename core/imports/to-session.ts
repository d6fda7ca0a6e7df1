/**
 * From imported fixes to a session as the device would have sent it: the fixes as gps.six lines
 * (laps and heats numbered from Voltas's own GPS lap timing) and the timed laps as lap.six lines,
 * so every screen, export and analysis reads an import exactly as a device session.
 */
import { WEAK_FIX_SATELLITES } from '../analysis/gps-analysis';
import { allocGpsColumns, type GpsColumns } from '../formats/gps-columns';
import { asWritten, gpsSixLines } from '../formats/gps-six-write';
import { msToLapTimeRaw, serializeLapSix, type Lap, type Sector } from '../formats/lap-six';
import { HEATS } from '../formats/six-lines';
import { opensAsLapZero, type LapColumns } from '../laps/session-laps';
import { haversineM } from '../geo';
import { gateAcross, type Gate, type LatLon } from '../tracks/gate';
import { headingAt, liesAcross, nearestOnPolyline, type TrackLine } from '../tracks/track-line';
import { MIN_LAP_MS, runsOfDay, timeLaps, type Run, type TimedLap, type Trace } from '../tracks/lap-timing';
import type { ImportedTrace, LoggerLap } from './trace';

const DAY_MS = 86_400_000;
/** How far from the track's line a logger's start/finish point may be and still be its line there (a pit lane beside the straight). */
const OWN_LINE_NEAR_M = 60;
/** A line's half-width beyond the point: the logger's line reaches both the track and the point. */
const OWN_LINE_MARGIN_M = 15;
const GATE_HALF_WIDTH_M = 25;
/** A logger's lap and Voltas's are the same lap when they end within this of each other. */
const SAME_END_MS = 2_000;
/** A logger's lap end between fixes further apart than this (a pause without a fix) says not where it was. */
const LAP_END_GAP_MS = 2_500;

/** An imported trace as the session's gps.six will hold it: what the track search and lap timing read. */
export type SessionTrace = Trace & { roll: Float64Array };

/**
 * The trace made what the session's gps.six will hold, in place (a long file has a million fixes:
 * not copied): a speed the file lacks computed from the positions around; unknown satellites as
 * the fewest that count as a good fix (gps.six has no "unknown"); unknown lean as 0; every value
 * rounded as written. Times stay ms since the epoch (lap timing reads their differences). Doing it
 * again changes nothing.
 */
export function sessionTrace(t: ImportedTrace): SessionTrace {
  const at = (i: number) => Math.min(t.count - 1, Math.max(0, i));
  for (let i = 0; i < t.count; i++) {
    if (!Number.isNaN(t.speedKmh[i]!)) continue;
    const a = at(i - 1);
    const b = at(i + 1);
    const dt = (t.timeMs[b]! - t.timeMs[a]!) / 1000;
    t.speedKmh[i] = dt > 0 ? (haversineM(t.lat[a]!, t.lon[a]!, t.lat[b]!, t.lon[b]!) / dt) * 3.6 : 0;
  }
  for (let i = 0; i < t.count; i++) {
    t.lat[i] = asWritten(t.lat[i]!, 7);
    t.lon[i] = asWritten(t.lon[i]!, 7);
    t.speedKmh[i] = asWritten(Math.min(1000, t.speedKmh[i]!), 1);
    if (t.satellites[i]! < 0) t.satellites[i] = WEAK_FIX_SATELLITES;
    t.timeMs[i] = Math.round(t.timeMs[i]!);
    t.leanDeg[i] = Number.isNaN(t.leanDeg[i]!) ? 0 : asWritten(t.leanDeg[i]!, 1);
  }
  const satellites = new Uint16Array(t.satellites.buffer, t.satellites.byteOffset, t.count); // none negative now
  return { count: t.count, lat: t.lat, lon: t.lon, timeMs: t.timeMs, speed: t.speedKmh, satellites, roll: t.leanDeg };
}

/** A lap's place in the session: heat (0-3 for A-D), number within it, and whether it is the heat's out-lap. */
interface Numbering {
  heat: number;
  lapCount: number;
  first: 0 | 1;
}

/**
 * A run that never completed a lap and was over sooner than any lap could be (rolling about the
 * paddock before standing a minute or more, then going out) is no heat of its own.
 */
function paddockRuns(laps: readonly TimedLap[]): Set<number> {
  const runs = new Map<number, TimedLap[]>();
  for (const lap of laps) {
    const pieces = runs.get(lap.run);
    if (pieces) pieces.push(lap);
    else runs.set(lap.run, [lap]);
  }
  const paddock = new Set<number>();
  for (const [run, pieces] of runs)
    if (pieces.every((l) => !l.complete) && pieces.at(-1)!.end.ms - pieces[0]!.start.ms < MIN_LAP_MS) paddock.add(run);
  return paddock.size < runs.size ? paddock : new Set();
}

/**
 * Each timed lap's heat and number, as the device numbers them: a run of the day is a heat (A-D),
 * laps numbered within it from 0 where it opens with an out-lap or a partial piece (the lap.six's
 * lap 0, the gps.six's first-lap flag). Runs past the fourth stay in D and go on counting there, so
 * no two laps of a day share a heat and number. A paddock run's pieces (`paddockRuns`) are the
 * next lap's, as the samples of a stand are (after the day's last heat: its next laps), so they
 * take no heat letter; neither does a run with no piece at all.
 */
export function lapNumbering(laps: readonly TimedLap[]): Map<number, Numbering> {
  const paddock = paddockRuns(laps);
  const heats = [...new Set(laps.filter((l) => !paddock.has(l.run)).map((l) => l.run))];
  const lapNumbers = new Map<number, Numbering>();
  const lastIn = new Map<number, number>();
  let waiting: TimedLap[] = [];
  for (const lap of laps) {
    if (paddock.has(lap.run)) {
      waiting.push(lap);
      continue;
    }
    const heat = Math.min(3, heats.indexOf(lap.run));
    const seen = lastIn.get(heat);
    const lapCount = seen === undefined ? (opensAsLapZero(lap) ? 0 : 1) : seen + 1;
    lastIn.set(heat, lapCount);
    for (const l of [...waiting, lap]) lapNumbers.set(l.number, { heat, lapCount, first: lapCount === 0 ? 1 : 0 });
    waiting = [];
  }
  const heat = Math.min(3, heats.length - 1);
  for (const lap of waiting) {
    const lapCount = lastIn.get(heat)! + 1;
    lastIn.set(heat, lapCount);
    lapNumbers.set(lap.number, { heat, lapCount, first: 0 });
  }
  return lapNumbers;
}

/** The samples of each lap as the gps.six numbers them (`from` to `to`, exclusive), in order. */
function lapRanges(t: Trace, laps: readonly TimedLap[], numbers: Map<number, Numbering>) {
  const { count } = t;
  const ranges: { from: number; to: number; n: Numbering }[] = [];
  // Samples between pieces (standing in the pits, a pause) belong to the piece that follows; those
  // after a run's last piece, up to the run's end, to the next lap of its heat, as a device counts
  // them: each run keeps the sample after its last line, so its laps time the same again from the
  // gps.six's heats (the one lap list). No stretch of the file is left as an unnamed lap 0.
  // (A paddock run's piece is numbered as the lap after it: so are the samples after it.)
  const tail = (after: { to: number; n: Numbering }, to: number, next?: Numbering) => {
    const same = next && next.heat === after.n.heat && next.lapCount === after.n.lapCount;
    if (after.to < to)
      ranges.push({
        from: after.to,
        to,
        n: same ? after.n : { heat: after.n.heat, lapCount: after.n.lapCount + 1, first: 0 },
      });
  };
  let runs: Run[] | undefined;
  laps.forEach((lap, k) => {
    const before = laps[k - 1];
    if (before && lap.run !== before.run)
      tail(ranges.at(-1)!, (runs ??= runsOfDay(t))[before.run - 1]!.to, numbers.get(lap.number));
    ranges.push({
      from: ranges.at(-1)?.to ?? 0,
      to: Math.min(count - 1, lap.end.index) + 1,
      n: numbers.get(lap.number)!,
    });
  });
  const last = ranges.at(-1);
  if (last) tail(last, count);
  return ranges;
}

/** Each sample's heat and lap, whole, as `sessionColumns` writes them in its batches (the one lap list's input). */
export function sessionLapColumns(
  t: Trace,
  laps: readonly TimedLap[],
  numbers: Map<number, Numbering>,
): LapColumns & Pick<GpsColumns, 'heat' | 'lapCount'> {
  const { count } = t;
  const heat = new Uint8Array(count);
  const lapCount = new Int32Array(count);
  for (const r of lapRanges(t, laps, numbers)) {
    heat.fill(r.n.heat, r.from, r.to);
    lapCount.fill(r.n.lapCount, r.from, r.to);
  }
  return { count, heat, lapCount };
}

/**
 * The session's GPS columns, `size` samples at a time (a long session is never held twice whole):
 * the trace's values, times of day in UTC as gps.six has them, and each sample's heat, lap and
 * distance into the lap (`meterSum`), as the device fills them. One batch is refilled each time:
 * use it before taking the next.
 */
export function* sessionColumns(
  t: SessionTrace,
  laps: readonly TimedLap[],
  numbers: Map<number, Numbering>,
  size = 16_384,
): Generator<GpsColumns> {
  const c = allocGpsColumns(Math.min(size, t.count));
  const ranges = lapRanges(t, laps, numbers);
  let meters = 0;
  // The sample before: its heat and lap (none before the first), carried from batch to batch.
  let heat = -1;
  let lapCount = -1;
  for (let from = 0; from < t.count; from += size) {
    const n = Math.min(size, t.count - from);
    const to = from + n;
    c.count = n;
    c.lat.set(t.lat.subarray(from, to));
    c.lon.set(t.lon.subarray(from, to));
    c.speed.set(t.speed.subarray(from, to));
    c.satellites.set(t.satellites.subarray(from, to));
    c.roll.set(t.roll.subarray(from, to));
    c.leanFiltered.set(t.roll.subarray(from, to));
    for (let i = 0; i < n; i++) {
      c.line[i] = from + i + 1;
      c.timeMs[i] = ((t.timeMs[from + i]! % DAY_MS) + DAY_MS) % DAY_MS;
    }
    c.heat.fill(0);
    c.lapCount.fill(0);
    c.firstLap.fill(0);
    for (const r of ranges) {
      const [a, b] = [Math.max(r.from, from) - from, Math.min(r.to, to) - from];
      if (a >= b) continue;
      c.heat.fill(r.n.heat, a, b);
      c.lapCount.fill(r.n.lapCount, a, b);
      c.firstLap.fill(r.n.first, a, b);
    }
    for (let i = 0; i < n; i++) {
      const g = from + i;
      if (c.lapCount[i] !== lapCount || c.heat[i] !== heat) meters = 0;
      else meters += haversineM(t.lat[g - 1]!, t.lon[g - 1]!, t.lat[g]!, t.lon[g]!);
      c.meterSum[i] = Math.min(2_000_000_000, Math.round(meters));
      heat = c.heat[i]!;
      lapCount = c.lapCount[i]!;
    }
    yield c;
  }
}

/** The gps.six text of columns given a batch at a time (small sessions, tests). */
export function gpsSixText(batches: Iterable<GpsColumns>): string {
  let text = '';
  for (const c of batches) text += gpsSixLines(c);
  return text;
}

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

/**
 * lap.six text of the complete laps: their time is the logger's own where its file has that lap
 * (so the laps screen shows it with Voltas's GPS time under it, as for a device), else Voltas's
 * GPS time; four sectors from the track's sector gates, adding up to that time.
 */
export function lapSixText(
  laps: readonly (TimedLap & { sectorSeconds: number[] })[],
  numbers: Map<number, Numbering>,
  startMs: number,
  logger: readonly LoggerLap[],
  lengthM: number,
): { text: string; laps: Omit<Lap, 'line'>[] } {
  const out: Omit<Lap, 'line'>[] = [];
  for (const lap of laps) {
    if (!lap.complete) continue;
    const n = numbers.get(lap.number)!;
    const twin = loggerTwin(lap, startMs, logger);
    const seconds = twin ? twin.seconds : lap.seconds;
    const ms = Math.round(seconds * 1000);
    const parts = lap.sectorSeconds.length === 4 ? lap.sectorSeconds : [lap.seconds, 0, 0, 0];
    // The sectors split the lap's own time as the GPS split the lap (a logger's time is a few ms
    // off the GPS's), to the millisecond: one lap's sectors add up to its time, as a device's do.
    const total = parts.reduce((a, b) => a + b, 0);
    let through = 0;
    let before = 0;
    const sectors = parts.map((s) => {
      through += s;
      const end = Math.round((through / total) * ms);
      const sms = end - before;
      before = end;
      return {
        timerMs: sms,
        upFlag: 0,
        upMax: 0,
        upTrack: 0,
        displayTime: (sms / 1000).toFixed(3),
        distanceM: Math.round(lengthM / 4),
      } satisfies Sector;
    }) as Lap['sectors'];
    out.push({
      lapTime: msToLapTimeRaw(ms),
      lapTimeMs: ms,
      heat: HEATS[n.heat]!,
      lapSeconds: ms / 1000,
      sectors,
      sprintCount: n.heat + 1,
      distanceM: Math.round(lengthM),
      lapCount: n.lapCount,
    });
  }
  return { text: serializeLapSix(out), laps: out };
}

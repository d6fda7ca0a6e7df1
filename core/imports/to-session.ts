/**
 * From imported fixes to a session as the device would have sent it: the fixes as gps.six lines
 * (laps and heats numbered from Voltas's own GPS lap timing) and the timed laps as lap.six lines,
 * so every screen, export and analysis reads an import exactly as a device session. Where the
 * logger's own laps end, and which line timed them, is logger-line.ts.
 */
import { WEAK_FIX_SATELLITES } from '../analysis/gps-analysis';
import { allocGpsColumns, type GpsColumns } from '../formats/gps-columns';
import { asWritten, gpsSixLines } from '../formats/gps-six-write';
import { msToLapTimeRaw, serializeLapSix, type Lap, type Sector } from '../formats/lap-six';
import { HEATS } from '../formats/six-lines';
import { opensAsLapZero, type LapColumns } from '../laps/session-laps';
import { haversineM } from '../geo';
import { MIN_LAP_MS, runsOfDay, type Run, type TimedLap, type Trace } from '../tracks/lap-timing';
import { loggerTwin } from './logger-line';
import type { ImportedTrace, LoggerLap } from './trace';

const DAY_MS = 86_400_000;

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

/**
 * From imported fixes to a session as the device would have sent it: the fixes as gps.six lines
 * (laps and heats numbered from Voltas's own GPS lap timing) and the timed laps as lap.six lines,
 * so every screen, export and analysis reads an import exactly as a device session.
 */
import { WEAK_FIX_SATELLITES } from '../analysis/gps-analysis';
import { allocGpsColumns, trimGpsColumns, type GpsColumns } from '../formats/gps-columns';
import { asWritten, gpsSixBytes } from '../formats/gps-six-write';
import { msToLapTimeRaw, serializeLapSix, type Lap, type Sector } from '../formats/lap-six';
import { HEATS } from '../formats/six-lines';
import { haversineM } from '../sim/geo';
import type { TimedLap } from '../tracks/lap-timing';
import { TraceBuilder, type ImportedTrace, type LoggerLap } from './trace';

const DAY_MS = 86_400_000;
/** A logger's lap and Voltas's are the same lap when they end within this of each other. */
const SAME_END_MS = 2_000;

/** Several files of one day as one trace, in time order (where two overlap, the first one's fixes are kept). */
export function mergeTraces(traces: readonly ImportedTrace[]): ImportedTrace {
  if (traces.length === 1) return traces[0]!;
  const sorted = [...traces].sort((a, b) => a.timeMs[0]! - b.timeMs[0]!);
  const out = new TraceBuilder();
  for (const t of sorted)
    for (let i = 0; i < t.count; i++) {
      if (out.count && t.timeMs[i]! <= out.lastTimeMs()!) continue;
      out.add({ timeMs: t.timeMs[i]!, lat: t.lat[i]!, lon: t.lon[i]!, speedKmh: t.speedKmh[i]!, satellites: t.satellites[i]!, leanDeg: t.leanDeg[i]! });
    }
  return out.trace();
}

/**
 * The trace as GPS columns (times of day in UTC, as gps.six has them). A speed the file lacks is
 * computed from the positions around; unknown satellites are written as the fewest that count as
 * a good fix (gps.six has no "unknown"); unknown lean as 0.
 */
export function toColumns(t: ImportedTrace): GpsColumns {
  const c = allocGpsColumns(t.count);
  const at = (i: number) => Math.min(t.count - 1, Math.max(0, i));
  for (let i = 0; i < t.count; i++) {
    let speed = t.speedKmh[i]!;
    if (Number.isNaN(speed)) {
      const [a, b] = [at(i - 1), at(i + 1)];
      const dt = (t.timeMs[b]! - t.timeMs[a]!) / 1000;
      speed = dt > 0 ? (haversineM(t.lat[a]!, t.lon[a]!, t.lat[b]!, t.lon[b]!) / dt) * 3.6 : 0;
    }
    const lean = Number.isNaN(t.leanDeg[i]!) ? 0 : t.leanDeg[i]!;
    // As the session's gps.six will hold them: these columns are handed over as that file's parse.
    c.line[i] = i + 1;
    c.lat[i] = asWritten(t.lat[i]!, 7);
    c.lon[i] = asWritten(t.lon[i]!, 7);
    c.speed[i] = asWritten(Math.min(1000, speed), 1);
    c.satellites[i] = t.satellites[i]! < 0 ? WEAK_FIX_SATELLITES : t.satellites[i]!;
    c.timeMs[i] = ((Math.round(t.timeMs[i]!) % DAY_MS) + DAY_MS) % DAY_MS;
    c.roll[i] = asWritten(lean, 1);
    c.leanFiltered[i] = asWritten(lean, 1);
  }
  c.count = t.count;
  return trimGpsColumns(c);
}

/** A lap's place in the session: heat (0-3 for A-D), number within it, and whether it is the heat's out-lap. */
interface Numbering {
  heat: number;
  lapCount: number;
  first: 0 | 1;
}

/**
 * Heat and lap of every sample from the timed laps, written into the columns' lap fields (as the
 * device fills them): a run of the day is a heat (A-D; runs past the fourth stay in D), laps
 * numbered within it from 0 where it opens with an out-lap; `meterSum` the distance into the lap.
 * Returns each timed lap's numbering.
 */
export function numberLaps(c: GpsColumns, laps: readonly TimedLap[]): Map<number, Numbering> {
  const lapNumbers = new Map<number, Numbering>();
  const perRun = new Map<number, number>();
  c.heat.fill(0);
  c.lapCount.fill(0);
  c.firstLap.fill(0);
  for (const lap of laps) {
    const heat = Math.min(3, lap.run - 1);
    const seen = perRun.get(lap.run);
    const lapCount = seen === undefined ? (lap.kind === 'out' ? 0 : 1) : seen + 1;
    perRun.set(lap.run, lapCount);
    const n: Numbering = { heat, lapCount, first: lap.kind === 'out' ? 1 : 0 };
    lapNumbers.set(lap.number, n);
    const from = lap.start.fraction === 0 ? lap.start.index : lap.start.index + 1;
    const to = Math.min(c.count - 1, lap.end.index);
    c.heat.fill(heat, from, to + 1);
    c.lapCount.fill(lapCount, from, to + 1);
    c.firstLap.fill(n.first, from, to + 1);
  }
  let meters = 0;
  for (let i = 0; i < c.count; i++) {
    if (i === 0 || c.lapCount[i] !== c.lapCount[i - 1] || c.heat[i] !== c.heat[i - 1]) meters = 0;
    else meters += haversineM(c.lat[i - 1]!, c.lon[i - 1]!, c.lat[i]!, c.lon[i]!);
    c.meterSum[i] = Math.min(2_000_000_000, Math.round(meters));
  }
  return lapNumbers;
}

/** The columns as gps.six, in pieces of LINES_PER_PIECE lines (a long session's text is never held whole). */
export function* gpsSixChunks(c: GpsColumns, linesPerPiece = 16_384): Generator<Uint8Array> {
  for (let i = 0; i < c.count; i += linesPerPiece) yield gpsSixBytes(c, i, Math.min(c.count, i + linesPerPiece));
}

/** The whole gps.six text (small sessions, tests). */
export function gpsSixText(c: GpsColumns): string {
  const decoder = new TextDecoder();
  return [...gpsSixChunks(c)].map((b) => decoder.decode(b)).join('');
}

/** The logger's own lap that ends where this one does, if its file times laps. */
export function loggerTwin(lap: TimedLap, startMs: number, logger: readonly LoggerLap[]): LoggerLap | undefined {
  const end = startMs + lap.end.ms;
  return logger.find((l) => l.endMs !== undefined && Math.abs(l.endMs - end) <= SAME_END_MS && Math.abs(l.seconds - lap.seconds) < 1);
}

/**
 * lap.six text of the complete laps: their time is the logger's own where its file has that lap
 * (so the laps screen shows it with Voltas's GPS time under it, as for a device), else Voltas's
 * GPS time; four sectors from the track's sector gates.
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
    const sectors = parts.map((s) => {
      const sms = Math.round(s * 1000);
      return { timerMs: sms, upFlag: 0, upMax: 0, upTrack: 0, displayTime: (sms / 1000).toFixed(3), distanceM: Math.round(lengthM / 4) } satisfies Sector;
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

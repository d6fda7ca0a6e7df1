/**
 * A session's one lap list (decision 028): the pieces Voltas's GPS timing cut the trace into, each
 * by what happened on track (out, flying, in or partial: core/tracks/lap-timing.ts), named as the
 * device names its laps, with the time a rider sees everywhere: the device's own (lap.six) for a
 * device session, the logger's own for an import whose file timed that lap, else the GPS time.
 * Every screen and API that shows laps reads this list.
 */
import type { Lap } from '../formats/lap-six';
import { HEATS, type Heat } from '../formats/six-lines';
import type { LapKind, TimedLap } from '../tracks/lap-timing';

type TimeSource = 'device' | 'logger' | 'gps';

export interface ListedLap {
  heat: Heat;
  /** Within its heat; 0 for the piece that opens it before its first crossing (as the device counts). */
  number: number;
  kind: LapKind;
  /** The time a rider sees; null for a partial piece, and for an out- or in-piece the device did not time. */
  seconds: number | null;
  timeSource: TimeSource;
  /** Voltas's GPS gate timing of the piece, the check beside the device's or logger's time. */
  gpsSeconds: number;
  /** The lap.six time of the same lap (the device's, or for an import the time Voltas kept from its logger). */
  deviceSeconds: number | null;
  /** A lap line to line whose shown time and GPS time differ by more than DIFFERS_S. */
  differs: boolean;
}

/** Beyond this the shown time and the GPS time are said to differ (and both are shown). */
const DIFFERS_S = 0.05;
/** A GPS lap and a lap.six lap are the same lap when their ends are this many samples apart at most (10 Hz: 2 s)… */
const SAME_LAP_SAMPLES = 20;
/** …and their times this close (a lap.six lap and a GPS lap of another length are other laps). */
const SAME_LAP_S = 1;

/** The trace columns the list reads: the heat and lap number each sample was recorded in. */
export interface LapColumns {
  count: number;
  heat: ArrayLike<number>;
  lapCount: ArrayLike<number>;
}

/** A heat that opens with this piece counts it as lap 0, as the device counts its out-lap. */
export const opensAsLapZero = (l: Pick<TimedLap, 'kind' | 'complete'>) => l.kind === 'out' || !l.complete;

/**
 * Each piece's heat and number: the lap the session's gps.six puts its samples in (the device's
 * own count, or an import's, which Voltas wrote from these pieces), read at its middle. A stop
 * inside a device's lap (at the pit exit) cuts it into two pieces: both keep that lap's name, and
 * the laps after keep theirs. Without those columns, counted per heat from 0 where a heat opens
 * with an out-lap or a partial piece, as the device counts.
 */
function lapNames(laps: readonly TimedLap[], trace: LapColumns): { heat: Heat; number: number }[] {
  if (trace.heat.length && trace.lapCount.length)
    return laps.map((l) => {
      const middle = (l.start.index + l.end.index + 1) >> 1;
      return { heat: HEATS[trace.heat[middle]!]!, number: trace.lapCount[middle]! };
    });
  const perHeat = new Map<string, { seen: number; first: number }>();
  return laps.map((l) => {
    const heat = HEATS[Math.min(3, l.run - 1)]!;
    const counter = perHeat.get(heat) ?? { seen: 0, first: opensAsLapZero(l) ? 0 : 1 };
    perHeat.set(heat, { ...counter, seen: counter.seen + 1 });
    return { heat, number: counter.first + counter.seen };
  });
}

/** The device's own laps by the sample ranges its lap and heat columns give them. */
function deviceLapRanges(trace: LapColumns, laps: readonly Lap[]) {
  const ranges: { start: number; end: number; lap: Lap }[] = [];
  let start = 0;
  for (let i = 1; i <= trace.count; i++) {
    if (i < trace.count && trace.lapCount[i] === trace.lapCount[start] && trace.heat[i] === trace.heat[start]) continue;
    const heat = HEATS[trace.heat[start]!];
    const lap = laps.find((l) => l.heat === heat && l.lapCount === trace.lapCount[start]);
    if (lap) ranges.push({ start, end: i, lap });
    start = i;
  }
  return ranges;
}

/**
 * The list. `imported`: the session is an import, whose lap.six Voltas wrote itself with the
 * logger's time where the file had one and its own GPS time elsewhere (equal to the ms: GPS).
 */
export function listLaps(
  laps: readonly TimedLap[],
  trace: LapColumns,
  deviceLaps: readonly Lap[],
  imported: boolean,
): ListedLap[] {
  const ranges = deviceLapRanges(trace, deviceLaps);
  const names = lapNames(laps, trace);
  return laps.map((l, k) => {
    // Matched by where each ends (the device starts its out-lap where it started recording, and an
    // import's lap 0 holds what came before its first piece), and for a lap by its time too.
    const twin = ranges.find(
      (r) =>
        Math.abs(r.end - (l.end.index + 1)) <= SAME_LAP_SAMPLES &&
        (!l.complete || Math.abs(r.lap.lapSeconds - l.seconds) < SAME_LAP_S),
    );
    const gpsSeconds = l.seconds;
    const deviceSeconds = twin ? twin.lap.lapSeconds : null;
    const timeSource: TimeSource =
      deviceSeconds === null
        ? 'gps'
        : !imported
          ? 'device'
          : Math.abs(deviceSeconds - gpsSeconds) >= 0.0005
            ? 'logger'
            : 'gps';
    // A piece that is not line to line has a time only where the device timed it (its out-lap from
    // where it started): never the GPS's duration of a piece.
    const seconds = l.kind === 'partial' ? null : (deviceSeconds ?? (l.complete ? gpsSeconds : null));
    return {
      ...names[k]!,
      kind: l.kind,
      seconds,
      timeSource,
      gpsSeconds,
      deviceSeconds,
      // Only a lap line to line is a check: an out-piece after a stop is not the device's whole out-lap.
      differs: l.complete && seconds !== null && Math.abs(seconds - gpsSeconds) > DIFFERS_S,
    };
  });
}

/** The index (into the list) of the session's best lap: its fastest flying lap by the time shown; -1 without one. */
export function bestOf(list: readonly Pick<ListedLap, 'kind' | 'seconds'>[]): number {
  let best = -1;
  list.forEach((l, k) => {
    if (l.kind === 'flying' && l.seconds !== null && (best < 0 || l.seconds < list[best]!.seconds!)) best = k;
  });
  return best;
}

/** A lap of a session's lap.six by its name ('B1') and time (ms). */
interface NamedLap {
  name: string;
  ms: number;
}

/**
 * What each lap of a session is named once the session is built again (an imported file of the
 * same day added before it renumbers its heats): the lap with its time, its own name first. A lap
 * whose time no lap has now, or more than one, is not in the answer.
 */
export function lapRenames(before: readonly NamedLap[], after: readonly NamedLap[]): Map<string, string> {
  const same = (a: NamedLap, b: NamedLap) => Math.abs(a.ms - b.ms) <= 1;
  const renames = new Map<string, string>();
  for (const lap of before) {
    const twins = after.filter((l) => same(l, lap));
    const twin = twins.find((l) => l.name === lap.name) ?? (twins.length === 1 ? twins[0] : undefined);
    if (twin) renames.set(lap.name, twin.name);
  }
  return renames;
}

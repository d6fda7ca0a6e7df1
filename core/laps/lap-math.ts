// The timing screen's arithmetic on a lap list: out, in and flying laps, gaps, best sectors,
// consistency and the figures kept.
import type { Heat } from '../formats/six-lines';
import type { Lap } from '../formats/lap-six';
import { bestOf, type ListedLap } from './session-laps';

export type LapKind = 'out' | 'in' | 'flying';
/** A lap's kind as shown: the lap.six's rules give the first three; the one lap list (decision 028) may also say 'partial'. */
export type ShownKind = LapKind | 'partial';

/**
 * In-lap rule: the last lap of a heat slower than this factor × the heat's median flying lap
 * (motorsport's 107 % rule). Out-lap: lapCount 0 (the device's out-lap, firstLapFlag on the GPS).
 */
const IN_LAP_FACTOR = 1.07;

interface LapAnalysis {
  lapNumber: number;
  kind: ShownKind;
  /** Gap to the session's best flying lap in ms (0 for the best; null when there is none). */
  gapMs: number | null;
  isBest: boolean;
  /** Per sector index: is this the session's best sector time. */
  bestSectors: [boolean, boolean, boolean, boolean];
}

export interface SessionAnalysis {
  laps: LapAnalysis[];
  /** Index into the input array of the best flying lap, or -1. */
  bestIndex: number;
  bestLapMs: number | null;
  /** Best time per sector index over flying laps (null when no flying lap). */
  bestSectorsMs: [number | null, number | null, number | null, number | null];
  /** Sum of the best sectors; null unless all four exist. */
  theoreticalBestMs: number | null;
  heats: Heat[];
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function classifyLaps(laps: readonly Lap[]): LapKind[] {
  const kinds: LapKind[] = laps.map((l) => (l.lapCount === 0 ? 'out' : 'flying'));
  const byHeat = new Map<Heat, number[]>();
  laps.forEach((l, i) => {
    const list = byHeat.get(l.heat) ?? [];
    list.push(i);
    byHeat.set(l.heat, list);
  });
  for (const indexes of byHeat.values()) {
    const flying = indexes.filter((i) => kinds[i] === 'flying');
    if (flying.length < 2) continue;
    const last = flying.reduce((a, b) => (laps[b]!.lapCount > laps[a]!.lapCount ? b : a));
    const others = flying.filter((i) => i !== last).map((i) => laps[i]!.lapTimeMs);
    if (laps[last]!.lapTimeMs > IN_LAP_FACTOR * median(others)) kinds[last] = 'in';
  }
  return kinds;
}

/** The lap.six's figures; `kinds` (one per lap, e.g. the one lap list's) replaces the lap.six's own rules where given. */
export function analyzeSession(
  laps: readonly Lap[],
  kinds: readonly ShownKind[] = classifyLaps(laps),
): SessionAnalysis {
  let bestIndex = -1;
  const bestSectorsMs: SessionAnalysis['bestSectorsMs'] = [null, null, null, null];
  laps.forEach((lap, i) => {
    if (kinds[i] !== 'flying' || lap.lapTimeMs <= 0) return;
    if (bestIndex < 0 || lap.lapTimeMs < laps[bestIndex]!.lapTimeMs) bestIndex = i;
    lap.sectors.forEach((s, k) => {
      const current = bestSectorsMs[k];
      if (s.timerMs > 0 && (current == null || s.timerMs < current)) bestSectorsMs[k] = s.timerMs;
    });
  });
  const bestLapMs = bestIndex >= 0 ? laps[bestIndex]!.lapTimeMs : null;
  const theoreticalBestMs = bestSectorsMs.every((v) => v !== null)
    ? bestSectorsMs.reduce<number>((a, b) => a + b!, 0)
    : null;
  return {
    laps: laps.map((lap, i) => ({
      lapNumber: lap.lapCount,
      kind: kinds[i]!,
      gapMs: bestLapMs === null ? null : lap.lapTimeMs - bestLapMs,
      isBest: i === bestIndex,
      bestSectors: lap.sectors.map(
        (s, k) => kinds[i] === 'flying' && s.timerMs === bestSectorsMs[k],
      ) as LapAnalysis['bestSectors'],
    })),
    bestIndex,
    bestLapMs,
    bestSectorsMs,
    theoreticalBestMs,
    heats: [...new Set(laps.map((l) => l.heat))].sort(),
  };
}

/** Share of a session's flying laps its consistency is measured on: the fastest 80 % (traffic, a mistake and the cool-down lap left out). */
const CONSISTENCY_SHARE = 0.8;
/** Fewer flying laps than this: no consistency figure (one lap or two say nothing of it). */
const CONSISTENCY_MIN_LAPS = 3;

/**
 * Consistency as riders ask for it: the standard deviation (sample, n − 1) of the fastest 80 %
 * of the flying laps, in ms; null with fewer than three flying laps.
 */
export function consistencyMs(flyingLapMs: readonly number[]): number | null {
  return spreadOf(flyingLapMs).consistencyMs;
}

/** Consistency and the mean of the laps it is measured on; both null with fewer than three flying laps. */
function spreadOf(flyingLapMs: readonly number[]): { consistencyMs: number | null; meanLapMs: number | null } {
  if (flyingLapMs.length < CONSISTENCY_MIN_LAPS) return { consistencyMs: null, meanLapMs: null };
  const kept = [...flyingLapMs]
    .sort((a, b) => a - b)
    .slice(0, Math.max(2, Math.floor(flyingLapMs.length * CONSISTENCY_SHARE)));
  const mean = kept.reduce((a, b) => a + b, 0) / kept.length;
  const variance = kept.reduce((a, b) => a + (b - mean) ** 2, 0) / (kept.length - 1);
  return { consistencyMs: Math.round(Math.sqrt(variance)), meanLapMs: Math.round(mean) };
}

/** What a list of sessions or a progress chart shows of one session, kept beside it (see migrations 0010 and 0013). */
export interface LapFigures {
  bestLapMs: number | null;
  /** The best flying lap as the screens name it (heat, lap number). */
  bestLap: { heat: Heat; lapCount: number } | null;
  /** Sum of the session's best four sectors (the spec's theoretical best); null unless all four exist. */
  theoreticalBestMs: number | null;
  consistencyMs: number | null;
  /** Mean of the laps the consistency is measured on (the middle of the spread). */
  meanLapMs: number | null;
  flyingLaps: number;
  heats: number;
  /** Each lap.six lap's kind (in the lap.six's order) by the one lap list; absent where kept from the lap.six alone. */
  lapKinds?: ShownKind[];
}

/**
 * The rule kept figures follow: 1 the lap.six alone (migration 0010); 2 the one lap list where the
 * session has one (a GPS trace at a track), the lap.six's rules elsewhere; 3 the list's laps named
 * by the gps.six (a stop in a device's out-lap shifted every name after it), its ideal lap with a
 * 1 Hz logger's sections. A row kept by an older rule is computed again (decision 028).
 */
export const FIGURES_VERSION = 3;

/** A session's figures by the lap.six's rules (no GPS trace, or none timed at a track). */
export function lapFigures(laps: readonly Lap[]): LapFigures {
  const a = analyzeSession(laps);
  const flying = laps.filter((l, i) => a.laps[i]!.kind === 'flying' && l.lapTimeMs > 0).map((l) => l.lapTimeMs);
  const best = a.bestIndex >= 0 ? laps[a.bestIndex]! : null;
  return {
    bestLapMs: a.bestLapMs,
    bestLap: best ? { heat: best.heat, lapCount: best.lapCount } : null,
    theoreticalBestMs: a.theoreticalBestMs,
    ...spreadOf(flying),
    flyingLaps: flying.length,
    heats: a.heats.length,
  };
}

/**
 * Each lap.six lap's kind by the one lap list: the list's lap of the same name that the device
 * timed too; the lap.six's own rule for a lap the list has no twin of.
 */
function listKinds(list: readonly ListedLap[], laps: readonly Lap[]): ShownKind[] {
  const own = classifyLaps(laps);
  return laps.map(
    (lap, i) =>
      list.find((l) => l.heat === lap.heat && l.number === lap.lapCount && l.deviceSeconds !== null)?.kind ?? own[i]!,
  );
}

/**
 * A session's figures by its one lap list (decision 028): the best lap is the list's fastest
 * flying lap by the time shown, consistency and mean are over the list's flying laps, and the
 * theoretical best adds the best sectors of the lap.six laps the list calls flying.
 */
export function listFigures(list: readonly ListedLap[], laps: readonly Lap[]): LapFigures {
  const lapKinds = listKinds(list, laps);
  const a = analyzeSession(laps, lapKinds);
  const best = bestOf(list);
  const flying = list
    .filter((l) => l.kind === 'flying' && l.seconds !== null)
    .map((l) => Math.round(l.seconds! * 1000));
  return {
    bestLapMs: best < 0 ? null : Math.round(list[best]!.seconds! * 1000),
    bestLap: best < 0 ? null : { heat: list[best]!.heat, lapCount: list[best]!.number },
    theoreticalBestMs: a.theoreticalBestMs,
    ...spreadOf(flying),
    flyingLaps: flying.length,
    heats: new Set([...list.map((l) => l.heat), ...a.heats]).size,
    lapKinds,
  };
}

import { WEAK_FIX_SATELLITES } from '../analysis/gps-analysis';
import type { Corner } from './corners';
import type { Gate, LatLon } from './gate';
import { continuousTime, timeLaps, type TimedLap, type Trace } from './lap-timing';
import { cutTimes, lateralOffset, positionsAlong } from './lap-positions';
import type { TrackLine } from './track-line';

/** What Voltas knows of a track: its start/finish, its line (from the start/finish) and its corners. */
export interface TrackDefinition {
  gate: Gate;
  line: TrackLine;
  corners: Corner[];
  /** Sector gates, and where each crosses the line (metres from the start/finish, rising). */
  sectors: { gate: Gate; atM: number }[];
}

/** A piece of the lap: a corner (T3) or the straight after one (R3; R0 from the line to T1). */
export interface Segment {
  id: string;
  kind: 'corner' | 'straight';
  corner: number | null;
  fromM: number;
  toM: number;
}

/** A piece of the ideal lap: mid-straight to mid-straight around one corner, where two laps join rideably. */
export interface Section {
  corner: number;
  fromM: number;
  toM: number;
}

interface CornerFigures {
  corner: number;
  seconds: number;
  entryKmh: number;
  /** The slowest point, where the apex was on this lap. */
  minKmh: number;
  apexM: number;
  apex: LatLon;
  exitKmh: number;
  /** Most lean in the corner, degrees (negative to the left); null without a lean channel. */
  maxLeanDeg: number | null;
  /** Where braking began, metres before the apex; null where the rider did not slow for it. */
  brakeBeforeApexM: number | null;
  topKmhBefore: number;
}

export interface AnalyzedLap extends TimedLap {
  /** Seconds of each segment (same order as `segments`); they add up to the lap time. */
  segmentSeconds: number[];
  /** Top speed in each segment, km/h. */
  segmentTopKmh: number[];
  /** Seconds from gate to gate: start/finish, each sector gate, start/finish; they add up to the lap time. */
  sectorSeconds: number[];
  /** Seconds of each ideal-lap section; null where the GPS was out or weak. */
  sectionSeconds: (number | null)[];
  /** Speed (km/h) and metres left of the track's line where each section begins (the ideal lap's joins). */
  sectionEntry: { atM: number; kmh: number; offsetM: number }[];
  /** Each corner's figures; a lap that left the track's line has those of the corners it reached only. */
  corners: CornerFigures[];
}

export interface TrackAnalysis {
  laps: AnalyzedLap[];
  segments: Segment[];
  sections: Section[];
  /** The fastest flying lap's number, null without one. */
  bestLap: number | null;
  /**
   * The fastest lap a rider could ride of the flying laps' sections: pieces of two laps join only
   * where their speed and line meet (IDEAL_JOIN_KMH, IDEAL_JOIN_M), with the lap that gave each and
   * the joins; never slower than the best lap. Null seconds where a section has no clean lap.
   */
  ideal: {
    seconds: number | null;
    sections: { seconds: number | null; lap: number | null }[];
    joins: { atM: number; from: number; to: number; kmhApart: number; metresApart: number }[];
  };
}

/**
 * No fix for longer than this inside a section (or OUTAGE_INTERVALS of the recording's usual
 * interval, for a logger of 1 Hz or so): its time there is not trusted.
 */
const OUTAGE_MS = 1000;
const OUTAGE_INTERVALS = 2.5;
/** A complete lap's positions reach the end of the track's line within this (m), or it did not follow the line. */
const FOLLOWED_SLACK_M = 100;
/** The usual interval is the median of at most this many intervals spread over the recording. */
const INTERVALS_SAMPLED = 10_000;
/** Two laps' pieces join in the ideal lap only where their speeds are this close (km/h) … */
export const IDEAL_JOIN_KMH = 5;
/** … and their lines this close (m): a rider could ride from one into the other. */
export const IDEAL_JOIN_M = 3;
/** The approach's top speed this much above the apex's: the rider braked for the corner. */
const BRAKE_DROP_KMH = 3;

/** The lap cut at each corner's start and end: corner and straight segments. */
function segmentsOf(corners: readonly Corner[], length: number): Segment[] {
  const segments: Segment[] = [];
  let at = 0;
  let after = 0;
  for (const c of corners) {
    const from = Math.max(at, c.startM);
    const to = Math.min(length, c.endM);
    if (from > at) segments.push({ id: `R${after}`, kind: 'straight', corner: null, fromM: at, toM: from });
    if (to > from) segments.push({ id: `T${c.number}`, kind: 'corner', corner: c.number, fromM: from, toM: to });
    at = Math.max(at, to);
    after = c.number;
  }
  if (at < length) segments.push({ id: `R${after}`, kind: 'straight', corner: null, fromM: at, toM: length });
  return segments;
}

/** The ideal lap's sections: cut mid-way along the straight between each corner and the next. */
export function sectionsOf(corners: readonly Corner[], length: number): Section[] {
  if (!corners.length) return [{ corner: 0, fromM: 0, toM: length }];
  return corners.map((c, k) => ({
    corner: c.number,
    fromM: k === 0 ? 0 : (corners[k - 1]!.endM + c.startM) / 2,
    toM: k === corners.length - 1 ? length : (c.endM + corners[k + 1]!.startM) / 2,
  }));
}

/** Laps timed at the gate, each cut into segments and sections, with its corner figures; the ideal lap. */
export function analyzeTrack(recorded: Trace, track: TrackDefinition): TrackAnalysis {
  // A logger without a lean sensor writes 0 throughout: its corners' lean is unknown, not upright.
  const trace = recorded.roll?.subarray(0, recorded.count).some((v) => v !== 0)
    ? recorded
    : { ...recorded, roll: undefined };
  const time = continuousTime(trace);
  const segments = segmentsOf(track.corners, track.line.length);
  const sections = sectionsOf(track.corners, track.line.length);
  const outageMs = Math.max(OUTAGE_MS, OUTAGE_INTERVALS * usualIntervalMs(time));
  const laps: AnalyzedLap[] = timeLaps(trace, track.gate, time).map((lap) => {
    // A partial out- or in-lap does not start or end at the line: no segments.
    if (!lap.complete)
      return {
        ...lap,
        segmentSeconds: [],
        segmentTopKmh: [],
        sectorSeconds: [],
        sectionSeconds: [],
        sectionEntry: [],
        corners: [],
      };
    const from = lap.start.index;
    const to = Math.min(trace.count - 1, lap.end.index + 1);
    const positions = positionsAlong(track.line, trace, from, to);
    /** The lap's start, when it passed each of `cutsM` (metres along the line), its end. */
    const edges = (cutsM: number[]) => [
      lap.start.ms,
      ...cutTimes(positions, time, from, lap.start, lap.end, cutsM),
      lap.end.ms,
    ];
    const segmentEdges = edges(segments.slice(1).map((s) => s.fromM));
    const sectionEdges = edges(sections.slice(1).map((s) => s.fromM));
    const sectorEdges = edges(track.sectors.map((g) => g.atM));
    // A lap that never got near the end of the line did not ride it (a rough outline, another
    // layout): where it was is unknown, and none of its sections counts towards the ideal lap.
    const furthest = positions.reduce((far, p) => Math.max(far, p), -Infinity);
    const followed = furthest >= track.line.length - FOLLOWED_SLACK_M;
    return {
      ...lap,
      segmentSeconds: segments.map((_, k) => (segmentEdges[k + 1]! - segmentEdges[k]!) / 1000),
      segmentTopKmh: segments.map((_, k) => topSpeed(trace, time, from, to, segmentEdges[k]!, segmentEdges[k + 1]!)),
      sectorSeconds: sectorEdges.slice(1).map((edge, k) => (edge - sectorEdges[k]!) / 1000),
      sectionEntry: sections.map((section) => entryAt(track.line, trace, positions, from, section.fromM)),
      sectionSeconds: sections.map((_, k) =>
        followed && clean(trace, time, from, to, sectionEdges[k]!, sectionEdges[k + 1]!, outageMs)
          ? (sectionEdges[k + 1]! - sectionEdges[k]!) / 1000
          : null,
      ),
      // Each corner's approach runs from the end of the corner before (the first's from the line).
      // Such a lap has figures only for the corners it reached along the line (none of 0.00 s).
      corners: track.corners.flatMap((c, k) =>
        followed || c.endM <= furthest
          ? [cornerFigures(trace, time, positions, from, c, k > 0 ? track.corners[k - 1]!.endM : -Infinity)]
          : [],
      ),
    };
  });

  const flying = laps.filter((l) => l.kind === 'flying');
  const best = flying.reduce<AnalyzedLap | undefined>((b, l) => (!b || l.seconds < b.seconds ? l : b), undefined);
  const ideal = rideableIdeal(flying, sections.length, best);
  return {
    laps,
    segments,
    sections,
    bestLap: best?.number ?? null,
    ideal,
  };
}

/**
 * The analysis by the times a rider sees (`shown`, each lap's time as listed: the device's or the
 * logger's, a few ms off the GPS's at the gate): each complete lap's sections scaled to add up to
 * it, and the ideal lap built again from them, so it is never slower than the best lap as listed.
 * The difference is spread in proportion: where along the lap it arose is not known.
 */
export function byShownTimes(analysis: TrackAnalysis, shown: readonly (number | null)[]): TrackAnalysis {
  const laps = analysis.laps.map((l, k) => {
    const seconds = shown[k];
    if (!l.complete || seconds == null || seconds === l.seconds) return l;
    return { ...l, sectionSeconds: l.sectionSeconds.map((s) => (s === null ? null : (s * seconds) / l.seconds)) };
  });
  const flying = laps.filter((l) => l.kind === 'flying');
  const shownOf = (l: AnalyzedLap) => shown[laps.indexOf(l)] ?? l.seconds;
  const best = flying.reduce<AnalyzedLap | undefined>((b, l) => (!b || shownOf(l) < shownOf(b) ? l : b), undefined);
  const ideal = rideableIdeal(flying, analysis.sections.length, best && { ...best, seconds: shownOf(best) });
  // To the millisecond, as lap times are: float noise never makes it a hair slower than the best.
  const seconds = ideal.seconds === null ? null : Math.round(ideal.seconds * 1000) / 1000;
  return { ...analysis, laps, ideal: { ...ideal, seconds } };
}

/**
 * The fastest chain of the flying laps' sections in which each join is rideable: the two laps'
 * speed and line meet there (a lap always joins itself). Each section's best time and lap by
 * dynamic programming over the sections; ties keep the lap found first. Never slower than the
 * best lap: where that is not made of clean sections, the best lap itself.
 */
export function rideableIdeal(
  flying: readonly AnalyzedLap[],
  count: number,
  best: AnalyzedLap | undefined,
): TrackAnalysis['ideal'] {
  const none = {
    seconds: null,
    sections: Array.from({ length: count }, () => ({ seconds: null, lap: null })),
    joins: [],
  };
  const meets = (a: AnalyzedLap, b: AnalyzedLap, k: number) =>
    a === b ||
    (Math.abs(a.sectionEntry[k]!.kmh - b.sectionEntry[k]!.kmh) <= IDEAL_JOIN_KMH &&
      Math.abs(a.sectionEntry[k]!.offsetM - b.sectionEntry[k]!.offsetM) <= IDEAL_JOIN_M);
  // total[k][i]: the fastest clean chain of sections 0..k ending with lap i's section k.
  let total = flying.map((l) => l.sectionSeconds[0] ?? Infinity);
  const from: number[][] = [flying.map(() => -1)];
  for (let k = 1; k < count; k++) {
    const next = flying.map(() => Infinity);
    const back = flying.map(() => -1);
    flying.forEach((l, i) => {
      const own = l.sectionSeconds[k];
      if (own == null) return;
      flying.forEach((p, j) => {
        if (total[j]! + own < next[i]! && meets(p, l, k)) {
          next[i] = total[j]! + own;
          back[i] = j;
        }
      });
    });
    total = next;
    from.push(back);
  }
  let end = -1;
  total.forEach((t, i) => {
    if (Number.isFinite(t) && (end < 0 || t < total[end]!)) end = i;
  });
  if (end < 0 || (best && total[end]! > best.seconds + 1e-9)) {
    if (!best || best.sectionSeconds.some((s) => s === null)) return none;
    return {
      seconds: best.seconds,
      sections: best.sectionSeconds.map((seconds) => ({ seconds, lap: best.number })),
      joins: [],
    };
  }
  const chain: number[] = [];
  for (let k = count - 1, i = end; k >= 0; i = from[k]![i]!, k--) chain.unshift(i);
  const sections = chain.map((i, k) => ({ seconds: flying[i]!.sectionSeconds[k]!, lap: flying[i]!.number }));
  const joins = chain.flatMap((i, k) => {
    if (k === 0 || chain[k - 1] === i) return [];
    const [a, b] = [flying[chain[k - 1]!]!, flying[i]!];
    return [
      {
        atM: Math.round(b.sectionEntry[k]!.atM),
        from: a.number,
        to: b.number,
        kmhApart: Math.round(Math.abs(a.sectionEntry[k]!.kmh - b.sectionEntry[k]!.kmh) * 10) / 10,
        metresApart: Math.round(Math.abs(a.sectionEntry[k]!.offsetM - b.sectionEntry[k]!.offsetM) * 10) / 10,
      },
    ];
  });
  return { seconds: sections.reduce((sum, s) => sum + s.seconds, 0), sections, joins };
}

/** Speed and offset from the track's line where a lap passed `atM`, between the fixes around it. */
function entryAt(line: TrackLine, trace: Trace, positions: Float64Array, from: number, atM: number) {
  const kmh = valueAt(positions, trace.speed, from, atM);
  const j = Math.min(positions.length - 1, Math.max(0, firstAtOrPast(positions, atM)));
  return { atM, kmh, offsetM: lateralOffset(line, trace.lat[from + j]!, trace.lon[from + j]!, positions[j]!) };
}

/**
 * The first index in [lo, hi) whose value is at or past `v`, `hi` if none: `values` rise (times;
 * positions along a lap, but for a fix's jitter).
 */
function firstAtOrPast(values: Float64Array, v: number, lo = 0, hi = values.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function topSpeed(trace: Trace, time: Float64Array, from: number, to: number, fromMs: number, toMs: number): number {
  let top = 0;
  for (let i = firstAtOrPast(time, fromMs, from, to + 1); i <= to && time[i]! <= toMs; i++)
    if (trace.speed[i]! > top) top = trace.speed[i]!;
  return top;
}

/** The recording's usual time between two fixes (ms; 0 with fewer than two). */
function usualIntervalMs(time: Float64Array): number {
  const step = Math.max(1, Math.floor((time.length - 1) / INTERVALS_SAMPLED));
  const intervals: number[] = [];
  for (let i = 1; i < time.length; i += step) intervals.push(time[i]! - time[i - 1]!);
  return intervals.length ? intervals.sort((a, b) => a - b)[intervals.length >> 1]! : 0;
}

/** No gap over `outageMs` and no weak fix between two moments of the lap. */
function clean(
  trace: Trace,
  time: Float64Array,
  from: number,
  to: number,
  fromMs: number,
  toMs: number,
  outageMs: number,
): boolean {
  // From the fix before the section: a gap that spans its start counts.
  for (let i = Math.max(from, firstAtOrPast(time, fromMs, from, to + 1) - 1); i <= to; i++) {
    if (time[i]! > toMs) break;
    if (trace.satellites[i]! < WEAK_FIX_SATELLITES) return false;
    if (i < to && time[i + 1]! - time[i]! > outageMs) return false;
  }
  return true;
}

function valueAt(positions: Float64Array, values: ArrayLike<number>, from: number, s: number): number {
  const j = Math.max(1, firstAtOrPast(positions, s));
  if (j >= positions.length) return values[from + positions.length - 1]!;
  const s0 = positions[j - 1]!;
  const s1 = positions[j]!;
  const f = s1 > s0 ? Math.max(0, Math.min(1, (s - s0) / (s1 - s0))) : 0;
  return values[from + j - 1]! + f * (values[from + j]! - values[from + j - 1]!);
}

function cornerFigures(
  trace: Trace,
  time: Float64Array,
  positions: Float64Array,
  from: number,
  c: Corner,
  approachFromM: number,
): CornerFigures {
  let slowest = -1;
  let lean: number | null = trace.roll ? 0 : null;
  for (let j = firstAtOrPast(positions, c.startM); j < positions.length && positions[j]! <= c.endM; j++) {
    const i = from + j;
    if (slowest < 0 || trace.speed[i]! < trace.speed[from + slowest]!) slowest = j;
    if (trace.roll && Math.abs(trace.roll[i]!) > Math.abs(lean!)) lean = trace.roll[i]!;
  }
  if (slowest < 0) slowest = nearestIndex(positions, c.apexM);
  // Braking began where the approach was fastest: a lift of a few km/h in a long corner, or a
  // noisy GPS speed, is not where the rider braked.
  let top = slowest;
  for (let j = slowest - 1; j >= 0 && positions[j]! >= approachFromM; j--)
    if (trace.speed[from + j]! > trace.speed[from + top]!) top = j;
  const i = from + slowest;
  const entryKmh = valueAt(positions, trace.speed, from, c.startM);
  const exitKmh = valueAt(positions, trace.speed, from, c.endM);
  return {
    corner: c.number,
    seconds: (valueAt(positions, time, from, c.endM) - valueAt(positions, time, from, c.startM)) / 1000,
    entryKmh,
    // A corner taken while still speeding up is slowest at its entry, between two fixes.
    minKmh: Math.min(trace.speed[i]!, entryKmh, exitKmh),
    apexM: positions[slowest]!,
    apex: { lat: trace.lat[i]!, lon: trace.lon[i]! },
    exitKmh,
    maxLeanDeg: lean,
    brakeBeforeApexM:
      top < slowest && trace.speed[from + top]! - trace.speed[i]! >= BRAKE_DROP_KMH
        ? positions[slowest]! - positions[top]!
        : null,
    topKmhBefore: trace.speed[from + top]!,
  };
}

function nearestIndex(positions: Float64Array, s: number): number {
  let best = 0;
  for (let j = 1; j < positions.length; j++) if (Math.abs(positions[j]! - s) < Math.abs(positions[best]! - s)) best = j;
  return best;
}

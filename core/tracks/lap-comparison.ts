import type { Language } from '../preferences';
import type { Translate } from '../i18n/intl';
import { distanceIn, speedIn, UNIT_OF, type Units } from '../units';
import type { Corner } from './corners';
import { lapOnGrid, type LapOnGrid } from './lap-grid';
import { lateralOffset, positionsAlong } from './lap-positions';
import { continuousTime, type TimedLap, type Trace } from './lap-timing';
import { curvature, type TrackLine } from './track-line';
import type { AnalyzedLap, Section, Segment, TrackAnalysis, TrackDefinition } from './track-analysis';

/** One segment of a lap against the same segment of a reference lap. */
interface SegmentDelta {
  segment: string;
  kind: Segment['kind'];
  corner: number | null;
  /** Positive: the lap lost time there. */
  deltaSeconds: number;
  /** In a corner: metres earlier the lap began braking (negative: later); null where either did not brake. */
  brakedEarlierM: number | null;
  /** In a corner: km/h faster at the apex (negative: slower). */
  apexKmh: number | null;
  /** In a corner: km/h faster on the way out. */
  exitKmh: number | null;
  /** On a straight: km/h more top speed. */
  topKmh: number | null;
}

export interface LapComparison {
  lap: number;
  reference: number;
  deltaSeconds: number;
  /** Every segment, largest loss first. */
  segments: SegmentDelta[];
}

/**
 * Where a lap lost (or gained) time against a reference lap of the same track, segment by
 * segment, with what differed there. Both laps must be complete (cut into the same segments).
 */
export function compareLaps(lap: AnalyzedLap, reference: AnalyzedLap, segments: readonly Segment[]): LapComparison {
  const rows = segments.map((segment, k): SegmentDelta => {
    const row: SegmentDelta = {
      segment: segment.id,
      kind: segment.kind,
      corner: segment.corner,
      deltaSeconds: lap.segmentSeconds[k]! - reference.segmentSeconds[k]!,
      brakedEarlierM: null,
      apexKmh: null,
      exitKmh: null,
      topKmh: null,
    };
    if (segment.corner === null) return { ...row, topKmh: lap.segmentTopKmh[k]! - reference.segmentTopKmh[k]! };
    const mine = lap.corners.find((c) => c.corner === segment.corner);
    const theirs = reference.corners.find((c) => c.corner === segment.corner);
    if (!mine || !theirs) return row;
    // Where along the track each began braking: the two laps' slowest points can lie metres apart.
    const [mineAt, theirsAt] = [mine, theirs].map((c) =>
      c.brakeBeforeApexM === null ? null : c.apexM - c.brakeBeforeApexM,
    );
    return {
      ...row,
      brakedEarlierM: mineAt != null && theirsAt != null ? theirsAt - mineAt : null,
      apexKmh: mine.minKmh - theirs.minKmh,
      exitKmh: mine.exitKmh - theirs.exitKmh,
    };
  });
  return {
    lap: lap.number,
    reference: reference.number,
    deltaSeconds: lap.seconds - reference.seconds,
    segments: rows.sort((a, b) => b.deltaSeconds - a.deltaSeconds),
  };
}

// ---------------------------------------------------------------------------------------------
// The corner study (issue 62): what a lap did differently at each corner, with the accuracy its
// trace allows. Each complete lap is measured once per session (`studySession`, in the analysis
// job); a lap against a reference is then a read (`coachLap`).

const G = 9.81;
/** Longitudinal g is the slope of speed over time within this many seconds either side (GPS speed jitters). */
const ACCEL_HALF_WINDOW_S = 0.25;
/** Slowing by more than this (g) is braking (a closed throttle alone slows a bike by less). */
const BRAKE_G = 0.2;
/** Speeding up by more than this (g), for THROTTLE_HOLD_S at least, is the throttle picked up. */
const THROTTLE_G = 0.1;
const THROTTLE_HOLD_S = 0.3;
/**
 * Where the throttle opens is found from the speed's rise, which GPS position noise blurs more
 * than a braking point's sharp change: laps ridden the same way put it this far apart (m, a
 * standard deviation's worth over the generator's sessions: 6 m at 10 Hz, 4 m at 25 Hz).
 */
const throttleNoiseM = (hz: number) => 3 + 30 / Math.max(hz, 1);
/** Braking that eases for no longer than this (s) and goes on may be one braking or two. */
const BRAKE_BRIDGE_S = 1.2;
/** Between braking and the throttle, within this (g) either way, the bike coasts. */
const COAST_G = 0.1;
/** Braking while leaned past this is trail braking. */
const TRAIL_LEAN_DEG = 15;
/** Within this of the corner's most lean, the rider is "at" it. */
const NEAR_MAX_LEAN_DEG = 3;
/** The slowest stretch: within this (m/s) of the minimum; its middle is where the minimum falls. */
const MIN_BAND_MS = 0.5;
/** Speed bins of the rider's grip envelope (km/h) and directions of the g-g plot's envelope. */
const ENVELOPE_BIN_KMH = 20;
const ENVELOPE_DIRECTIONS = 36;
/** The envelope is this quantile of combined g in each bin (one noisy fix does not set it). */
const ENVELOPE_QUANTILE = 0.98;
/** A lap's g-g points: about this many a second (a plot, not the trace). */
const GG_PER_SECOND = 5;
/** Fewer satellites than this, or a gap, and the line's offset and figures there are not trusted. */
const WEAK_SATELLITES = 6;
const OUTAGE_MS = 1000;
/** A fix's position along the track is worth about this (m): a GPS module's noise, correlated over seconds. */
const POSITION_NOISE_M = 2.5;
/** Lateral position against another day's lap: its GPS may sit a few metres aside. */
const LINE_ACCURACY_M = { sameSession: 1.5, otherSession: 4 } as const;

type LeanSource = 'device' | 'gps';

/** One complete lap's fixes against position along the track's line. */
interface LapChannels {
  /** Metres along the line (the furthest so far: positions only rise). */
  s: Float64Array;
  /** Seconds since the lap began. */
  t: Float64Array;
  /** m/s. */
  v: Float64Array;
  /** Longitudinal g (negative: slowing) and lateral g (positive: to the right). */
  ax: Float64Array;
  ay: Float64Array;
  /** Degrees, negative to the left: the device's roll, or from lateral g. */
  lean: Float64Array;
  /** Metres left (positive) or right of the track's line. */
  offset: Float64Array;
  /** A weak fix, or a gap after it. */
  weak: Uint8Array;
}

/** What one lap did at one corner; positions in metres along the line from the start/finish. */
interface CornerStudy {
  corner: number;
  /** Seconds from the section's start to the corner, through it, and on to the section's end. */
  parts: [number, number, number];
  /** Seconds into the lap when it reached the corner. */
  atS: number;
  /** No gap and no weak fix in the corner's section: its figures stand. */
  clean: boolean;
  /** How far the braking point, the slowest point and the throttle pick-up can be trusted (m). */
  accuracyM: number;
  apexAccuracyM: number;
  throttleAccuracyM: number;
  /** A speed at a place (the corner's exit) is off by as much as the place is, where the speed changes fast. */
  exitAccuracyKmh: number;
  brakeStartM: number | null;
  brakeKmh: number | null;
  brakePeakG: number | null;
  trailBrakeS: number | null;
  trailBrakeG: number | null;
  entryKmh: number;
  minKmh: number;
  minAtM: number;
  exitKmh: number;
  throttleAtM: number | null;
  throttleKmh: number | null;
  maxLeanDeg: number;
  nearMaxLeanS: number;
  leanAtThrottleDeg: number | null;
  coastS: number;
  gripUsePct: number | null;
  turnInOffsetM: number | null;
  apexOffsetM: number | null;
}

interface LapStudy {
  number: number;
  seconds: number;
  corners: CornerStudy[];
  /** Speed and lean on the position grid (lap-grid.ts), for the charts against the reference. */
  grid: Pick<LapOnGrid, 'speed' | 'lean'>;
  /** [lateral g, longitudinal g] a few times a second, for the g-g plot. */
  gg: [number, number][];
}

/** A session's laps measured corner by corner, and the rider's envelope: kept per session. */
export interface SessionStudy {
  hz: number;
  /** Where lean comes from: the device's roll, or GPS speed on the track's curvature; null never. */
  leanSource: LeanSource;
  laps: LapStudy[];
  /** The rider's best combined g at each speed (bins of ENVELOPE_BIN_KMH from 0). */
  envelopeG: number[];
  /** The rider's best g in each direction of the g-g plane (ENVELOPE_DIRECTIONS, from straight ahead, clockwise). */
  ggEnvelope: number[];
  /** Each corner's spread over the flying laps: braking point (m) and minimum speed (km/h), standard deviations. */
  consistency: { corner: number; laps: number; brakeSpreadM: number | null; minSpreadKmh: number | null }[];
  /** The ideal lap: which lap gave each corner's section. */
  ideal: { seconds: number | null; laps: (number | null)[] };
  bestLap: number | null;
}

/** How far apart two of a trace's fixes are at `ms` (m/s), and the accuracy of a point found between them. */
function accuracyAt(speedMs: number, hz: number): number {
  // Most of a fix's spacing and the GPS's own couple of metres: at 10 Hz ±3.5-6 m from 100 to
  // 250 km/h, at 25 Hz ±2.5-3.5 m.
  return round(Math.max(1.5, Math.hypot((0.75 * speedMs) / Math.max(hz, 0.2), POSITION_NOISE_M)), 1);
}

/** How far a speed read from the trace can be trusted (km/h): the GPS's own jitter and, at a low rate, a missed minimum. */
function speedAccuracyKmh(hz: number): number {
  return round(2 + 5 / Math.max(hz, 0.2), 1);
}

/** A lap time's difference inside this (s) is the same time. */
function timeAccuracyS(hz: number): number {
  return round(0.01 + 0.2 / Math.max(hz, 0.2), 3);
}

/**
 * The trace's rate of fixes: the median time between positions that moved (a logger that merges
 * other channels' rows into its timeline repeats a fix between two, at twice the rate or more).
 */
function usualHz(trace: Trace, time: Float64Array): number {
  const gaps: number[] = [];
  let last = 0;
  const step = Math.max(1, Math.floor(trace.count / 20_000));
  for (let i = 1; i < trace.count; i++) {
    if (trace.lat[i] === trace.lat[last] && trace.lon[i] === trace.lon[last]) continue;
    if (i % step === 0 && time[i]! > time[last]!) gaps.push(time[i]! - time[last]!);
    last = i;
  }
  if (!gaps.length) return 1;
  gaps.sort((a, b) => a - b);
  return round(1000 / gaps[gaps.length >> 1]!, 1);
}

function lapChannels(
  trace: Trace,
  time: Float64Array,
  line: TrackLine,
  kappa: Float64Array,
  lap: TimedLap,
  source: LeanSource,
): LapChannels {
  const from = lap.start.index;
  const to = Math.min(trace.count - 1, lap.end.index + 1);
  const raw = positionsAlong(line, trace, from, to);
  const n = raw.length;
  const s = new Float64Array(n);
  const t = new Float64Array(n);
  const v = new Float64Array(n);
  const weak = new Uint8Array(n);
  let furthest = -Infinity;
  for (let k = 0; k < n; k++) {
    const i = from + k;
    s[k] = furthest = Math.max(furthest, raw[k]!);
    t[k] = (time[i]! - lap.start.ms) / 1000;
    v[k] = trace.speed[i]! / 3.6;
    const gap = k > 0 && time[i]! - time[i - 1]! > OUTAGE_MS;
    weak[k] = trace.satellites[i]! < WEAK_SATELLITES || gap ? 1 : 0;
    if (gap) weak[k - 1] = 1;
  }
  const ax = slopeOverTime(t, v);
  const ay = new Float64Array(n);
  const lean = new Float64Array(n);
  const offset = new Float64Array(n);
  const m = line.x.length;
  const step = line.length / m;
  for (let k = 0; k < n; k++) {
    const i = from + k;
    const at = ((Math.round(s[k]! / step) % m) + m) % m;
    if (source === 'device') {
      lean[k] = trace.roll![i]!;
      ay[k] = Math.tan((Math.max(-70, Math.min(70, lean[k]!)) * Math.PI) / 180);
    } else {
      ay[k] = -(v[k]! ** 2 * kappa[at]!) / G;
      lean[k] = (Math.atan(ay[k]!) * 180) / Math.PI;
    }
    offset[k] = lateralOffset(line, trace.lat[i]!, trace.lon[i]!, s[k]!);
  }
  for (let k = 0; k < n; k++) ax[k] = ax[k]! / G;
  return { s, t, v, ax, ay, lean, offset, weak };
}

/** The slope of `v` over `t` at each point: least squares within ACCEL_HALF_WINDOW_S either side (a neighbour at least). */
function slopeOverTime(t: Float64Array, v: Float64Array): Float64Array {
  const n = t.length;
  const out = new Float64Array(n);
  // Running sums over the window [lo, hi], kept as it slides (times from the lap's start: small).
  let lo = 0;
  let hi = -1;
  let [c, st, sv, stt, stv] = [0, 0, 0, 0, 0];
  const add = (j: number, sign: number) => {
    c += sign;
    st += sign * t[j]!;
    sv += sign * v[j]!;
    stt += sign * t[j]! * t[j]!;
    stv += sign * t[j]! * v[j]!;
  };
  for (let k = 0; k < n; k++) {
    while (hi + 1 < n && (t[hi + 1]! - t[k]! <= ACCEL_HALF_WINDOW_S || hi < k + 1)) add(++hi, 1);
    while (lo < k - 1 && t[k]! - t[lo]! > ACCEL_HALF_WINDOW_S) add(lo++, -1);
    const den = stt - (st * st) / c;
    out[k] = den > 1e-12 ? (stv - (st * sv) / c) / den : 0;
  }
  return out;
}

/** The first index whose position is at or past `at` (positions rise). */
function indexAt(s: Float64Array, at: number): number {
  let lo = 0;
  let hi = s.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (s[mid]! < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A channel's value at a position, between the fixes around it. */
function valueAtM(ch: LapChannels, values: Float64Array, at: number): number {
  const j = Math.max(1, Math.min(ch.s.length - 1, indexAt(ch.s, at)));
  const [s0, s1] = [ch.s[j - 1]!, ch.s[j]!];
  const f = s1 > s0 ? Math.max(0, Math.min(1, (at - s0) / (s1 - s0))) : 0;
  return values[j - 1]! + f * (values[j]! - values[j - 1]!);
}

/** Where between fixes j-1 and j a channel crossed `level`, in metres along the line. */
function crossingM(ch: LapChannels, values: Float64Array, j: number, level: number): number {
  const [a, b] = [values[j - 1]!, values[j]!];
  const f = b !== a ? Math.max(0, Math.min(1, (level - a) / (b - a))) : 0;
  return ch.s[j - 1]! + f * (ch.s[j]! - ch.s[j - 1]!);
}

/** Cut times (seconds since the lap's start) at rising positions, the first 0 and the last the lap time. */
function timesAt(ch: LapChannels, cuts: readonly number[], seconds: number, lengthM: number): number[] {
  let last = 0;
  return cuts.map((c) => {
    // The line is where the lap was timed: its start and its end.
    if (c <= 0) return 0;
    if (c >= lengthM) return seconds;
    last = Math.min(seconds, Math.max(last, valueAtM(ch, ch.t, c)));
    return last;
  });
}

/** The rider's best combined g at a speed (m/s), from the envelope's bins. */
function envelopeAt(envelopeG: readonly number[], v: number): number {
  const bin = Math.min(envelopeG.length - 1, Math.floor((v * 3.6) / ENVELOPE_BIN_KMH));
  return envelopeG[bin] ?? 0;
}

function measureCorner(
  ch: LapChannels,
  c: Corner,
  section: Section,
  seconds: number,
  lengthM: number,
  hz: number,
  envelopeG: readonly number[],
): CornerStudy {
  const startM = Math.max(section.fromM, c.startM);
  const endM = Math.min(section.toM, c.endM);
  const [t0, t1, t2, t3] = timesAt(ch, [section.fromM, startM, endM, section.toM], seconds, lengthM);
  const first = indexAt(ch.s, section.fromM);
  const last = Math.min(ch.s.length - 1, indexAt(ch.s, section.toM));
  let clean = true;
  for (let j = first; j <= last; j++) if (ch.weak[j]) clean = false;

  // The slowest point inside the corner, and the middle of the stretch within MIN_BAND_MS of it.
  const cFrom = Math.max(first, indexAt(ch.s, startM));
  const cTo = Math.max(cFrom, Math.min(last, indexAt(ch.s, endM)));
  let slowest = cFrom;
  for (let j = cFrom; j <= cTo; j++) if (ch.v[j]! < ch.v[slowest]!) slowest = j;
  let bandFrom = slowest;
  let bandTo = slowest;
  while (bandFrom > cFrom && ch.v[bandFrom - 1]! <= ch.v[slowest]! + MIN_BAND_MS) bandFrom--;
  while (bandTo < cTo && ch.v[bandTo + 1]! <= ch.v[slowest]! + MIN_BAND_MS) bandTo++;
  const minAtM = (ch.s[bandFrom]! + ch.s[bandTo]!) / 2;

  // Braking: back from the slowest point to the stretch slowing by BRAKE_G or more (within the
  // section), then to where it first slowed by half its hardest: a corner that tightens slows the
  // bike a little before the brakes go on, and that is not where the rider braked.
  let brakeStartM: number | null = null;
  let brakeIdx = -1;
  let brakePeakG = 0;
  let brakeLevel = BRAKE_G;
  let brakeSpreadM = 0;
  let j = slowest;
  while (j > first && ch.ax[j]! > -BRAKE_G && ch.s[slowest]! - ch.s[j]! < 150) j--;
  if (ch.ax[j]! <= -BRAKE_G) {
    let peak = j;
    while (j > first && ch.ax[j - 1]! <= -BRAKE_G) if (ch.ax[--j]! < ch.ax[peak]!) peak = j;
    for (let k = j; k <= slowest; k++) brakePeakG = Math.max(brakePeakG, -ch.ax[k]!);
    brakeLevel = Math.max(BRAKE_G, -ch.ax[peak]! / 2);
    let k = peak;
    while (k > j && ch.ax[k - 1]! <= -brakeLevel) k--;
    if (k > first && ch.v[k]! - ch.v[slowest]! >= 1) {
      brakeIdx = k;
      brakeStartM = crossingM(ch, ch.ax, k, -brakeLevel);
      // Braking eased for a moment and went on (two steps, or a jittery fix between): where the
      // first step began is as much the braking point, so the figure is no closer than that.
      let bridged = k;
      for (let b = k - 1; b > first && ch.t[bridged]! - ch.t[b]! <= BRAKE_BRIDGE_S; b--)
        if (ch.ax[b]! <= -brakeLevel) {
          while (b > first && ch.ax[b - 1]! <= -brakeLevel) b--;
          bridged = b;
        }
      brakeSpreadM = ch.s[k]! - ch.s[bridged]!;
    }
  }
  // The throttle: the first point past the slowest where the bike speeds up by THROTTLE_G, and
  // keeps on doing so over THROTTLE_HOLD_S (on average: one jittery fix does not stop it), before
  // the corner's end. Where g wavers about that level (a long corner opening up), each such point
  // is a candidate: the figure is no closer than the stretch between the first and the last.
  let throttleIdx = -1;
  let lastCandidate = -1;
  for (let k = bandFrom + 1; k <= cTo; k++) {
    if (ch.ax[k]! < THROTTLE_G || ch.ax[k - 1]! >= THROTTLE_G) continue;
    let sum = 0;
    let count = 0;
    for (let h = k; h <= last && ch.t[h]! - ch.t[k]! <= THROTTLE_HOLD_S; h++, count++) sum += ch.ax[h]!;
    if (!count || sum / count < THROTTLE_G) continue;
    if (throttleIdx < 0) throttleIdx = k;
    lastCandidate = k;
  }
  // Smoothed g crosses the level up to half a window early where the rise is sudden (a held
  // speed, then the throttle opened hard): there the point is the knee of the speed itself. A
  // gradual rise (a long corner opening up) is where smoothed g crosses the level.
  const throttleRamp = throttleIdx < 0 ? 0 : rampM(ch, throttleIdx, THROTTLE_G);
  const knee = throttleIdx < 0 || throttleRamp > 0 ? null : kneeOf(ch, throttleIdx);
  const throttleAtM = throttleIdx < 0 ? null : knee ? ch.s[knee.index]! : crossingM(ch, ch.ax, throttleIdx, THROTTLE_G);
  const throttleSpreadM =
    throttleIdx < 0 ? 0 : knee ? knee.spreadM : Math.max(throttleRamp / 2, ch.s[lastCandidate]! - ch.s[throttleIdx]!);

  // Lean through the corner, braking while leaned, coasting between the brakes and the throttle.
  let maxLean = 0;
  for (let k = cFrom; k <= cTo; k++) maxLean = Math.max(maxLean, Math.abs(ch.lean[k]!));
  let nearMax = 0;
  let trailS = 0;
  let trailG = 0;
  let coast = 0;
  let grip = 0;
  let gripN = 0;
  const from = brakeIdx >= 0 ? brakeIdx : cFrom;
  const until = throttleIdx >= 0 ? throttleIdx : cTo;
  for (let k = Math.min(from, cFrom); k <= Math.max(until, cTo); k++) {
    const dt = k + 1 < ch.t.length ? ch.t[k + 1]! - ch.t[k]! : 0;
    const leaned = Math.abs(ch.lean[k]!);
    if (k >= cFrom && k <= cTo && leaned >= maxLean - NEAR_MAX_LEAN_DEG) nearMax += dt;
    if (k >= from && k < until) {
      if (ch.ax[k]! <= -COAST_G && leaned > TRAIL_LEAN_DEG) {
        trailS += dt;
        trailG = Math.max(trailG, -ch.ax[k]!);
      }
      if (Math.abs(ch.ax[k]!) < COAST_G) coast += dt;
    }
    const best = envelopeAt(envelopeG, ch.v[k]!);
    if (k >= from && k <= cTo && best > 0) {
      grip += Math.hypot(ch.ax[k]!, ch.ay[k]!) / best;
      gripN++;
    }
  }
  const offsetAt = (at: number) => {
    const k = indexAt(ch.s, at);
    return hz >= 5 && k < ch.s.length && !ch.weak[k] ? round(valueAtM(ch, ch.offset, at), 1) : null;
  };
  const kmh = (v: number) => round(v * 3.6, 1);
  const apexAccuracyM = accuracyAt(ch.v[slowest]!, hz);
  const brakeAccuracyM = accuracyAt(brakeIdx >= 0 ? ch.v[brakeIdx]! : valueAtM(ch, ch.v, startM), hz);
  return {
    corner: c.number,
    parts: [t1! - t0!, t2! - t1!, t3! - t2!],
    atS: round(t1!, 2),
    clean,
    // A point where g changes slowly (a long corner opening up, a gentle squeeze of the brake) is
    // found no closer than half the stretch over which g goes from half to one and a half the
    // threshold; where the speed stays near its minimum a while, no closer than half that stretch.
    accuracyM:
      brakeIdx < 0
        ? brakeAccuracyM
        : round(Math.max(brakeAccuracyM, rampM(ch, brakeIdx, -brakeLevel) / 2, brakeSpreadM), 1),
    apexAccuracyM: Math.max(apexAccuracyM, round((ch.s[bandTo]! - ch.s[bandFrom]!) / 2, 1)),
    throttleAccuracyM: round(Math.hypot(Math.max(apexAccuracyM, throttleSpreadM), throttleNoiseM(hz)), 1),
    brakeStartM: brakeStartM === null ? null : round(brakeStartM, 1),
    brakeKmh: brakeIdx < 0 ? null : kmh(ch.v[brakeIdx]!),
    brakePeakG: brakeIdx < 0 ? null : round(brakePeakG, 2),
    trailBrakeS: brakeIdx < 0 ? null : round(trailS, 2),
    trailBrakeG: brakeIdx < 0 ? null : round(trailG, 2),
    exitAccuracyKmh: round(
      Math.hypot(
        speedAccuracyKmh(hz),
        (3.6 * G * Math.abs(valueAtM(ch, ch.ax, endM)) * POSITION_NOISE_M) / Math.max(1, valueAtM(ch, ch.v, endM)),
      ),
      1,
    ),
    entryKmh: kmh(valueAtM(ch, ch.v, startM)),
    minKmh: kmh(ch.v[slowest]!),
    minAtM: round(minAtM, 1),
    exitKmh: kmh(valueAtM(ch, ch.v, endM)),
    throttleAtM: throttleAtM === null ? null : round(throttleAtM, 1),
    throttleKmh: throttleIdx < 0 ? null : kmh(ch.v[throttleIdx]!),
    maxLeanDeg: round(maxLean, 1),
    nearMaxLeanS: round(nearMax, 2),
    leanAtThrottleDeg: throttleIdx < 0 ? null : round(Math.abs(ch.lean[throttleIdx]!), 1),
    coastS: round(coast, 2),
    gripUsePct: gripN ? Math.round((100 * grip) / gripN) : null,
    turnInOffsetM: offsetAt(startM),
    apexOffsetM: offsetAt(c.apexM),
  };
}

/**
 * The stretch (m) over which longitudinal g passes from half to one and a half times `level` (a
 * negative level: braking) around fix `at`, where it crossed `level`, beyond what the smoothing
 * of g itself spreads a sudden change over (about a window's half either side, at that speed).
 */
function rampM(ch: LapChannels, at: number, level: number): number {
  const sign = Math.sign(level);
  const g = (k: number) => sign * ch.ax[k]!;
  const a = Math.abs(level);
  let lo = at;
  let hi = at;
  while (lo > 0 && g(lo - 1) > a / 2 && ch.t[at]! - ch.t[lo - 1]! < 3) lo--;
  while (hi + 1 < ch.s.length && g(hi) < 1.5 * a && ch.t[hi + 1]! - ch.t[at]! < 3) hi++;
  return Math.max(0, ch.s[hi]! - ch.s[lo]! - ch.v[at]! * ACCEL_HALF_WINDOW_S);
}

/**
 * The fix within a smoothing window either side of `at` (at least two fixes) where the speed's
 * rise bends most: the hinge of the two straight lines (over time) that fit the speed best.
 */
function kneeOf(ch: LapChannels, at: number): { index: number; spreadM: number } {
  let lo = at;
  let hi = at;
  while (lo > 0 && (ch.t[at]! - ch.t[lo]! < 2 * ACCEL_HALF_WINDOW_S || at - lo < 2)) lo--;
  while (hi + 1 < ch.s.length && (ch.t[hi]! - ch.t[at]! < 2 * ACCEL_HALF_WINDOW_S || hi - at < 2)) hi++;
  const sse: number[] = [];
  let best = lo + 1;
  for (let k = lo + 1; k < hi; k++) {
    sse[k - lo] = hingeFit(ch, lo, hi, ch.t[k]!);
    if (sse[k - lo]! < sse[best - lo]!) best = k;
  }
  // Knees that fit within about two standard errors of the best are as likely: the spread of those.
  const variance = sse[best - lo]! / Math.max(1, hi - lo + 1 - 3);
  let first = best;
  let last = best;
  for (let k = lo + 1; k < hi; k++)
    if (sse[k - lo]! <= sse[best - lo]! + 4 * variance) {
      first = Math.min(first, k);
      last = Math.max(last, k);
    }
  return { index: best, spreadM: (ch.s[last]! - ch.s[first]!) / 2 };
}

/** Squared error of the best fit of v ≈ a + b·t + c·max(0, t − knee) over fixes lo..hi. */
function hingeFit(ch: LapChannels, lo: number, hi: number, knee: number): number {
  // Normal equations of three unknowns, solved by Cramer's rule.
  const m = [0, 0, 0, 0, 0, 0];
  const r = [0, 0, 0];
  const t0 = ch.t[lo]!;
  for (let k = lo; k <= hi; k++) {
    const x1 = ch.t[k]! - t0;
    const x2 = Math.max(0, ch.t[k]! - knee);
    const y = ch.v[k]!;
    m[0]! += 1;
    m[1]! += x1;
    m[2]! += x2;
    m[3]! += x1 * x1;
    m[4]! += x1 * x2;
    m[5]! += x2 * x2;
    r[0]! += y;
    r[1]! += x1 * y;
    r[2]! += x2 * y;
  }
  const [n, s1, s2, s11, s12, s22] = m as [number, number, number, number, number, number];
  const det3 = (a: number[]) =>
    a[0]! * (a[4]! * a[8]! - a[5]! * a[7]!) -
    a[1]! * (a[3]! * a[8]! - a[5]! * a[6]!) +
    a[2]! * (a[3]! * a[7]! - a[4]! * a[6]!);
  const A = [n, s1, s2, s1, s11, s12, s2, s12, s22];
  const d = det3(A);
  if (Math.abs(d) < 1e-12) return Infinity;
  const a = det3([r[0]!, s1, s2, r[1]!, s11, s12, r[2]!, s12, s22]) / d;
  const b = det3([n, r[0]!, s2, s1, r[1]!, s12, s2, r[2]!, s22]) / d;
  const c = det3([n, s1, r[0]!, s1, s11, r[1]!, s2, s12, r[2]!]) / d;
  let sse = 0;
  for (let k = lo; k <= hi; k++) {
    const e = ch.v[k]! - (a + b * (ch.t[k]! - t0) + c * Math.max(0, ch.t[k]! - knee));
    sse += e * e;
  }
  return sse;
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : 0;
}

/** Sample standard deviation; null with fewer than three values. */
function spread(values: readonly number[]): number | null {
  if (values.length < 3) return null;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return round(Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / (values.length - 1)), 1);
}

/**
 * Every complete lap of a session measured corner by corner, the rider's grip envelope over its
 * flying laps, and each corner's consistency: computed once per session (the analysis job).
 */
export function studySession(recorded: Trace, track: TrackDefinition, analysis: TrackAnalysis): SessionStudy {
  const time = continuousTime(recorded);
  const hz = usualHz(recorded, time);
  const source: LeanSource = recorded.roll?.subarray(0, recorded.count).some((v) => v !== 0) ? 'device' : 'gps';
  const kappa = curvature(track.line.x, track.line.y);
  const complete = analysis.laps.filter((l) => l.complete);
  const channels = complete.map((l) => lapChannels(recorded, time, track.line, kappa, l, source));

  // The rider's envelope: the best combined g at each speed, over the flying laps' clean fixes.
  const bySpeed: number[][] = [];
  const byDirection: number[][] = Array.from({ length: ENVELOPE_DIRECTIONS }, () => []);
  complete.forEach((l, k) => {
    if (l.kind !== 'flying') return;
    const ch = channels[k]!;
    for (let j = 0; j < ch.v.length; j++) {
      if (ch.weak[j]) continue;
      const g = Math.hypot(ch.ax[j]!, ch.ay[j]!);
      const bin = Math.floor((ch.v[j]! * 3.6) / ENVELOPE_BIN_KMH);
      (bySpeed[bin] ??= []).push(g);
      byDirection[directionOf(ch.ay[j]!, ch.ax[j]!)]!.push(g);
    }
  });
  const envelopeG = Array.from(bySpeed, (gs) =>
    gs
      ? round(
          quantile(
            gs.sort((a, b) => a - b),
            ENVELOPE_QUANTILE,
          ),
          2,
        )
      : 0,
  );
  const ggEnvelope = byDirection.map((gs) =>
    round(
      quantile(
        gs.sort((a, b) => a - b),
        ENVELOPE_QUANTILE,
      ),
      2,
    ),
  );

  const laps = complete.map((l, k): LapStudy => {
    const ch = channels[k]!;
    const corners = track.corners.flatMap((c) => {
      const section = analysis.sections.find((x) => x.corner === c.number);
      return section ? [measureCorner(ch, c, section, l.seconds, track.line.length, hz, envelopeG)] : [];
    });
    const gg: [number, number][] = [];
    const every = Math.max(1, Math.round(hz / GG_PER_SECOND));
    for (let j = 0; j < ch.v.length; j += every) if (!ch.weak[j]) gg.push([round(ch.ay[j]!, 2), round(ch.ax[j]!, 2)]);
    const { speed, lean } = lapOnGrid(recorded, time, track.line, l);
    return { number: l.number, seconds: l.seconds, corners, gg, grid: { speed, lean } };
  });

  const flying = laps.filter((_, k) => complete[k]!.kind === 'flying');
  const consistency = track.corners.map((c) => {
    const measured = flying.flatMap((l) => l.corners.filter((x) => x.corner === c.number && x.clean));
    return {
      corner: c.number,
      laps: measured.length,
      brakeSpreadM: spread(measured.flatMap((x) => (x.brakeStartM === null ? [] : [x.brakeStartM]))),
      minSpreadKmh: spread(measured.map((x) => x.minKmh)),
    };
  });
  return {
    hz,
    leanSource: source,
    laps,
    envelopeG,
    ggEnvelope,
    consistency,
    ideal: { seconds: analysis.ideal.seconds, laps: analysis.ideal.sections.map((s) => s.lap) },
    bestLap: analysis.bestLap,
  };
}

/** The envelope's direction bin of a point of the g-g plane (0: speeding up, clockwise). */
function directionOf(lateral: number, longitudinal: number): number {
  const angle = Math.atan2(lateral, longitudinal);
  return (
    Math.floor(((angle + 2 * Math.PI) % (2 * Math.PI)) / ((2 * Math.PI) / ENVELOPE_DIRECTIONS)) % ENVELOPE_DIRECTIONS
  );
}

/** A difference of two figures: positive when the lap's is later (or higher); null where either is unknown. */
function delta(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : round(a - b, 1);
}

/** 'same' inside the accuracy, else which way; null where the difference is unknown. */
function verdict<T extends string>(d: number | null, accuracy: number, more: T, less: T): T | 'same' | null {
  if (d === null) return null;
  if (Math.abs(d) <= accuracy) return 'same';
  return d > 0 ? more : less;
}

/** One corner of a lap against the reference's: what the coaching answer says of it. */
export interface CoachedCorner {
  name: string;
  corner: number;
  direction: Corner['direction'];
  startM: number;
  apexM: number;
  endM: number;
  /** Which lap the reference's figures come from (the ideal lap's may differ corner to corner). */
  referenceLap: number;
  /** Seconds into the lap studied when it reached the corner. */
  atS: number;
  accuracyM: number;
  apexAccuracyM: number;
  throttleAccuracyM: number;
  speedAccuracyKmh: number;
  exitAccuracyKmh: number;
  timeLostS: number | null;
  entryLostS: number | null;
  middleLostS: number | null;
  exitLostS: number | null;
  brakeStartM: number | null;
  brakeDeltaM: number | null;
  brakePeakG: number | null;
  trailBrakeS: number | null;
  trailBrakeG: number | null;
  entryKmh: number | null;
  minKmh: number | null;
  minKmhDelta: number | null;
  minAtDeltaM: number | null;
  exitKmh: number | null;
  exitKmhDelta: number | null;
  throttleAtM: number | null;
  throttleAtDeltaM: number | null;
  throttleAtDeltaS: number | null;
  maxLeanDeg: number | null;
  nearMaxLeanS: number | null;
  leanAtThrottleDeg: number | null;
  coastS: number | null;
  coastDeltaS: number | null;
  gripUsePct: number | null;
  turnInOffsetDeltaM: number | null;
  apexOffsetDeltaM: number | null;
  lineAccuracyM: number;
  verdicts: {
    brake: 'earlier' | 'later' | 'same' | null;
    minSpeed: 'faster' | 'slower' | 'same' | null;
    apex: 'early' | 'late' | 'same' | null;
    throttle: 'earlier' | 'later' | 'same' | null;
    exitSpeed: 'faster' | 'slower' | 'same' | null;
  };
  /** The reference's own figures, for the charts' marks. */
  reference: Pick<CornerStudy, 'brakeStartM' | 'minKmh' | 'minAtM' | 'throttleAtM' | 'maxLeanDeg' | 'exitKmh'>;
  consistency: { laps: number; brakeSpreadM: number | null; minSpreadKmh: number | null } | null;
}

export interface CoachingStudy {
  lap: number;
  /** The reference: a lap ('lap') or the ideal lap built of several. */
  reference: { kind: 'lap' | 'ideal'; lap: number | null; seconds: number };
  deltaSeconds: number;
  timeAccuracyS: number;
  leanSource: LeanSource;
  corners: CoachedCorner[];
}

/** Where the reference's figures of each corner come from: one lap's study, or the ideal lap's pieces. */
export type CoachingReference =
  { kind: 'lap'; study: SessionStudy; lap: number; sameSession: boolean } | { kind: 'ideal'; study: SessionStudy };

/**
 * A lap against its reference corner by corner, from the session's study (a read: nothing is
 * measured again). Null where the lap or the reference is not in the study, or the ideal lap is
 * incomplete.
 */
export function coachLap(
  study: SessionStudy,
  lapNumber: number,
  reference: CoachingReference,
  corners: readonly Corner[],
): CoachingStudy | null {
  const lap = study.laps.find((l) => l.number === lapNumber);
  if (!lap) return null;
  const refLapOf = (k: number): LapStudy | undefined => {
    if (reference.kind === 'lap') return reference.study.laps.find((l) => l.number === reference.lap);
    const n = reference.study.ideal.laps[k];
    return n == null ? undefined : reference.study.laps.find((l) => l.number === n);
  };
  const refSeconds = reference.kind === 'lap' ? refLapOf(0)?.seconds : (reference.study.ideal.seconds ?? undefined);
  if (refSeconds === undefined) return null;
  const hz = Math.min(study.hz, reference.study.hz);
  const speedAcc = round(Math.SQRT2 * speedAccuracyKmh(hz), 1);
  const lineAcc =
    reference.kind === 'lap' && !reference.sameSession ? LINE_ACCURACY_M.otherSession : LINE_ACCURACY_M.sameSession;
  const out: CoachedCorner[] = [];
  corners.forEach((c, k) => {
    const mine = lap.corners.find((x) => x.corner === c.number);
    const refLap = refLapOf(k);
    const theirs = refLap?.corners.find((x) => x.corner === c.number);
    if (!mine || !theirs || !refLap) return;
    const trusted = mine.clean && theirs.clean;
    const known = <T>(v: T): T | null => (trusted ? v : null);
    // A difference of two figures, each good to ±a, is good to ±a√2.
    const both = (a: number, b: number) => round(Math.hypot(a, b), 1);
    const accuracyM = both(mine.accuracyM, theirs.accuracyM);
    const apexAccuracyM = both(mine.apexAccuracyM, theirs.apexAccuracyM);
    const throttleAccuracyM = both(mine.throttleAccuracyM, theirs.throttleAccuracyM);
    const exitAccuracyKmh = both(mine.exitAccuracyKmh, theirs.exitAccuracyKmh);
    const lost = mine.parts.map((p, i) => round(p - theirs.parts[i]!, 4));
    const brakeDeltaM = known(delta(mine.brakeStartM, theirs.brakeStartM));
    const minKmhDelta = known(delta(mine.minKmh, theirs.minKmh));
    const minAtDeltaM = known(delta(mine.minAtM, theirs.minAtM));
    const throttleAtDeltaM = known(delta(mine.throttleAtM, theirs.throttleAtM));
    const exitKmhDelta = known(delta(mine.exitKmh, theirs.exitKmh));
    const leanKnown = <T>(v: T): T | null => known(v);
    const consistency = study.consistency.find((x) => x.corner === c.number);
    out.push({
      name: `T${c.number}`,
      corner: c.number,
      direction: c.direction,
      startM: round(c.startM, 1),
      apexM: round(c.apexM, 1),
      endM: round(c.endM, 1),
      referenceLap: refLap.number,
      atS: mine.atS,
      accuracyM,
      apexAccuracyM,
      throttleAccuracyM,
      speedAccuracyKmh: speedAcc,
      exitAccuracyKmh,
      timeLostS: known(round(lost[0]! + lost[1]! + lost[2]!, 4)),
      entryLostS: known(lost[0]!),
      middleLostS: known(lost[1]!),
      exitLostS: known(lost[2]!),
      brakeStartM: known(mine.brakeStartM),
      brakeDeltaM,
      brakePeakG: known(mine.brakePeakG),
      trailBrakeS: leanKnown(mine.trailBrakeS),
      trailBrakeG: leanKnown(mine.trailBrakeG),
      entryKmh: known(mine.entryKmh),
      minKmh: known(mine.minKmh),
      minKmhDelta,
      minAtDeltaM,
      exitKmh: known(mine.exitKmh),
      exitKmhDelta,
      throttleAtM: known(mine.throttleAtM),
      throttleAtDeltaM,
      throttleAtDeltaS:
        throttleAtDeltaM === null
          ? null
          : round(throttleAtDeltaM / Math.max(1, (theirs.throttleKmh ?? theirs.minKmh) / 3.6), 2),
      maxLeanDeg: leanKnown(mine.maxLeanDeg),
      nearMaxLeanS: leanKnown(mine.nearMaxLeanS),
      leanAtThrottleDeg: leanKnown(mine.leanAtThrottleDeg),
      coastS: known(mine.coastS),
      coastDeltaS: known(round(mine.coastS - theirs.coastS, 2)),
      gripUsePct: known(mine.gripUsePct),
      turnInOffsetDeltaM: known(delta(mine.turnInOffsetM, theirs.turnInOffsetM)),
      apexOffsetDeltaM: known(delta(mine.apexOffsetM, theirs.apexOffsetM)),
      lineAccuracyM: lineAcc,
      verdicts: {
        brake: verdict(brakeDeltaM, accuracyM, 'later', 'earlier'),
        minSpeed: verdict(minKmhDelta, speedAcc, 'faster', 'slower'),
        apex: verdict(minAtDeltaM, apexAccuracyM, 'late', 'early'),
        throttle: verdict(throttleAtDeltaM, throttleAccuracyM, 'later', 'earlier'),
        exitSpeed: verdict(exitKmhDelta, exitAccuracyKmh, 'faster', 'slower'),
      },
      reference: {
        brakeStartM: theirs.brakeStartM,
        minKmh: theirs.minKmh,
        minAtM: theirs.minAtM,
        throttleAtM: theirs.throttleAtM,
        maxLeanDeg: theirs.maxLeanDeg,
        exitKmh: theirs.exitKmh,
      },
      consistency: consistency
        ? { laps: consistency.laps, brakeSpreadM: consistency.brakeSpreadM, minSpreadKmh: consistency.minSpreadKmh }
        : null,
    });
  });
  return {
    lap: lapNumber,
    reference: {
      kind: reference.kind,
      lap: reference.kind === 'lap' ? reference.lap : null,
      seconds: round(refSeconds, 3),
    },
    deltaSeconds: round(lap.seconds - refSeconds, 3),
    timeAccuracyS: timeAccuracyS(hz),
    leanSource: study.leanSource,
    corners: out,
  };
}

/** At most this many tips a session: a rider works on three things, not ten. */
const MAX_TIPS = 3;

export interface CoachingTip {
  corner: string;
  gainS: number;
  text: string;
}

/** What a tip names the reference by, in the rider's words. */
export type ReferenceName = { kind: 'ideal' } | { kind: 'record' } | { kind: 'best' } | { kind: 'lap'; lap: string };

/**
 * At most three things to work on, the corners losing most first, each a sentence in the rider's
 * language and units citing only differences outside the trace's accuracy.
 */
export function coachingTips(
  study: CoachingStudy,
  t: Translate,
  language: Language,
  units: Units,
  referenceName: ReferenceName,
): CoachingTip[] {
  const minGain = Math.max(0.05, 2 * study.timeAccuracyS);
  const distance = (m: number) =>
    numberFormat(language, { style: 'unit', unit: UNIT_OF.distance[units], maximumFractionDigits: 0 }).format(
      distanceIn(Math.abs(m), units),
    );
  const speed = (kmh: number) =>
    numberFormat(language, { style: 'unit', unit: UNIT_OF.speed[units], maximumFractionDigits: 0 }).format(
      speedIn(Math.abs(kmh), units),
    );
  const seconds = (s: number) =>
    numberFormat(language, { maximumFractionDigits: 1, minimumFractionDigits: 1 }).format(Math.abs(s));
  const ref =
    referenceName.kind === 'lap'
      ? t('coach.refLap', { lap: referenceName.lap })
      : referenceName.kind === 'ideal'
        ? t('coach.refIdeal')
        : referenceName.kind === 'record'
          ? t('coach.refRecord')
          : t('coach.refBest');
  const list = listFormat(language);
  return study.corners
    .filter((c) => c.timeLostS !== null && c.timeLostS >= minGain)
    .sort((a, b) => b.timeLostS! - a.timeLostS!)
    .slice(0, MAX_TIPS)
    .map((c) => {
      const said: string[] = [];
      const v = c.verdicts;
      if (v.brake === 'earlier') said.push(t('coach.brakeEarlier', { distance: distance(c.brakeDeltaM!), ref }));
      if (v.brake === 'later') said.push(t('coach.brakeLater', { distance: distance(c.brakeDeltaM!), ref }));
      if (v.minSpeed === 'slower') said.push(t('coach.minSlower', { speed: speed(c.minKmhDelta!) }));
      if (v.apex === 'early' && v.minSpeed !== 'same')
        said.push(t('coach.apexEarly', { distance: distance(c.minAtDeltaM!) }));
      if (v.apex === 'late') said.push(t('coach.apexLate', { distance: distance(c.minAtDeltaM!) }));
      if (v.throttle === 'later')
        said.push(
          t('coach.throttleLater', { seconds: seconds(c.throttleAtDeltaS!), distance: distance(c.throttleAtDeltaM!) }),
        );
      if (c.coastDeltaS !== null && c.coastDeltaS >= 0.2 && v.throttle !== 'later')
        said.push(t('coach.coastLonger', { seconds: seconds(c.coastDeltaS) }));
      if (v.exitSpeed === 'slower' && said.length < 2)
        said.push(t('coach.exitSlower', { speed: speed(c.exitKmhDelta!) }));
      const actions = said.length ? list.format(said.slice(0, 3)) : t('coach.slowerThrough', { ref });
      return {
        corner: c.name,
        gainS: round(c.timeLostS!, 2),
        text: t('coach.tip', { corner: c.name, actions, seconds: seconds(c.timeLostS!) }),
      };
    });
}

/** Intl's formatters are slow to make: one per language and options, kept. */
const formatters = new Map<string, Intl.NumberFormat>();
function numberFormat(language: Language, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${language}${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = new Intl.NumberFormat(language, options)));
  return f;
}
const lists = new Map<Language, Intl.ListFormat>();
function listFormat(language: Language): Intl.ListFormat {
  let f = lists.get(language);
  if (!f) lists.set(language, (f = new Intl.ListFormat(language, { type: 'conjunction' })));
  return f;
}

function round(v: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

// What one lap did at one corner (the corner study, issue 62): braking point and peak, trail
// braking, entry, minimum and exit speed, where the minimum falls, throttle pick-up, lean,
// coasting, grip use and line offset, each position with the accuracy the trace allows.
import type { Corner } from './corners';
import { accuracyAt, POSITION_NOISE_M, round, speedAccuracyKmh, throttleNoiseM } from './corner-accuracy';
import { ACCEL_HALF_WINDOW_S, crossingM, G, indexAt, timesAt, valueAtM, type LapChannels } from './lap-channels';
import type { Section } from './track-analysis';

/** Slowing by more than this (g) is braking (a closed throttle alone slows a bike by less). */
const BRAKE_G = 0.2;
/** Speeding up by more than this (g), for THROTTLE_HOLD_S at least, is the throttle picked up. */
const THROTTLE_G = 0.1;
const THROTTLE_HOLD_S = 0.3;
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
export const ENVELOPE_BIN_KMH = 20;

/** What one lap did at one corner; positions in metres along the line from the start/finish. */
export interface CornerStudy {
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

/** The rider's best combined g at a speed (m/s), from the envelope's bins. */
function envelopeAt(envelopeG: readonly number[], v: number): number {
  const bin = Math.min(envelopeG.length - 1, Math.floor((v * 3.6) / ENVELOPE_BIN_KMH));
  return envelopeG[bin] ?? 0;
}

export function measureCorner(
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

// A lap against its reference corner by corner, from the session's study (a read: nothing is
// measured again): each difference with its accuracy, and a verdict of "the same" inside it.
import type { Corner } from './corners';
import { LINE_ACCURACY_M, round, speedAccuracyKmh, timeAccuracyS } from './corner-accuracy';
import type { CornerStudy } from './corner-measure';
import type { LapStudy, SessionStudy } from './corner-study';
import type { LeanSource } from './lap-channels';

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

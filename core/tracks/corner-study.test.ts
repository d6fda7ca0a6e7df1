import { describe, expect, it } from 'vitest';
import { parseGpsSix } from '../formats/gps-six';
import { addMessages, intlFor, translator } from '../i18n/intl';
import { en } from '../i18n/messages/en';
import { es } from '../i18n/messages/es';
import { ptBR } from '../i18n/messages/pt-BR';
import { generateSession, type LapChange } from '../sim/session-generator';
import { loadTracks } from '../test-support/track-files';
import { coachingTips } from './coaching-tips';
import { studySession } from './corner-study';
import { coachLap, type CoachedCorner } from './lap-coaching';
import type { Trace } from './lap-timing';
import { analyzeTrack, IDEAL_JOIN_KMH, IDEAL_JOIN_M, rideableIdeal, type AnalyzedLap } from './track-analysis';
import { definitionFromCatalogue } from './track-definition';

// Laps with a known answer: the generator's rider rides every flying lap at one pace, but for
// three things done differently on purpose, each on its own lap; the study must find each within
// the accuracy it states, at 10 and at 25 Hz with GPS noise, and call everything else the same.

addMessages('pt-BR', ptBR);
addMessages('en', en);
addMessages('es', es);

const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;
const definition = definitionFromCatalogue(interlagos.points, interlagos.startFinish!, true);
const corners = definition.corners;
const [t1, t4, t14] = [corners[0]!, corners[3]!, corners[13]!];
/** A2 brakes 15 m earlier into T1, A3 carries 8 km/h less through T4, A4 picks up the throttle 0.3 s later out of T14; A5 is the reference. */
const CHANGES: Record<string, LapChange[]> = {
  A2: [{ kind: 'brake-earlier', atM: t1.apexM, metres: 15 }],
  A3: [{ kind: 'lower-min', atM: t4.apexM, kmh: 8 }],
  A4: [{ kind: 'throttle-later', atM: t14.apexM, seconds: 0.3 }],
};

function session(hz: number, seed: number, changes = CHANGES, gpsNoise = 1) {
  const trace = parseGpsSix(
    generateSession(interlagos, { seed, hz, gpsNoise, heats: 1, lapsPerHeat: [5, 5], exactPace: 0.95, changes }).gpsSix,
  ).value;
  const analysis = analyzeTrack(trace, definition);
  return { trace, analysis, study: studySession(trace, definition, analysis) };
}

/** Generated lap numbers: the out-lap is lap 1, so A2 is lap 3, and A5 (the reference) lap 6. */
const LAP = { A2: 3, A3: 4, A4: 5, A5: 6 } as const;

function against(study: ReturnType<typeof session>['study'], lap: number) {
  return coachLap(study, lap, { kind: 'lap', study, lap: LAP.A5, sameSession: true }, corners)!;
}

/** Every figure of a corner the laps rode the same way reads "the same". */
function expectSame(c: CoachedCorner, what: string) {
  expect(c.verdicts.brake ?? 'same', `${what} ${c.name} brake ${c.brakeDeltaM} ±${c.accuracyM}`).toBe('same');
  expect(c.verdicts.minSpeed, `${what} ${c.name} min ${c.minKmhDelta}`).toBe('same');
  expect(c.verdicts.apex, `${what} ${c.name} apex ${c.minAtDeltaM} ±${c.apexAccuracyM}`).toBe('same');
  expect(
    c.verdicts.throttle ?? 'same',
    `${what} ${c.name} throttle ${c.throttleAtDeltaM} ±${c.throttleAccuracyM}`,
  ).toBe('same');
  expect(c.verdicts.exitSpeed, `${what} ${c.name} exit ${c.exitKmhDelta} ±${c.exitAccuracyKmh}`).toBe('same');
}

describe.each([10, 25])('the corner study at %i Hz, with GPS noise', (hz) => {
  const { study, analysis } = session(hz, 1);

  it('finds the braking 15 m earlier into T1, within the accuracy it states, and nothing else there', () => {
    const c = against(study, LAP.A2).corners.find((x) => x.corner === 1)!;
    expect(Math.abs(c.brakeDeltaM! + 15), `${c.brakeDeltaM} ±${c.accuracyM}`).toBeLessThanOrEqual(c.accuracyM);
    expect(c.verdicts.brake).toBe('earlier');
    expect(c.accuracyM).toBeLessThan(hz === 10 ? 10 : 6);
    expect(c.verdicts.minSpeed).toBe('same');
    expect(c.timeLostS!).toBeGreaterThan(0.02);
  });

  it('finds the 8 km/h less through T4', () => {
    const c = against(study, LAP.A3).corners.find((x) => x.corner === 4)!;
    expect(Math.abs(c.minKmhDelta! + 8), `${c.minKmhDelta} ±${c.speedAccuracyKmh}`).toBeLessThanOrEqual(
      c.speedAccuracyKmh,
    );
    expect(c.verdicts.minSpeed).toBe('slower');
    expect(c.timeLostS!).toBeGreaterThan(0.1);
  });

  it('finds the throttle picked up 0.3 s later out of T14', () => {
    const c = against(study, LAP.A4).corners.find((x) => x.corner === 14)!;
    const truthM = 0.3 * (c.reference.minKmh / 3.6);
    expect(Math.abs(c.throttleAtDeltaM! - truthM), `${c.throttleAtDeltaM} ±${c.throttleAccuracyM}`).toBeLessThanOrEqual(
      c.throttleAccuracyM,
    );
    expect(c.verdicts.throttle).toBe('later');
    expect(c.throttleAtDeltaS!).toBeGreaterThan(0.15);
    expect(c.throttleAtDeltaS!).toBeLessThan(0.45);
  });

  it('calls every corner ridden the same way "the same"', () => {
    for (const [lap, changed] of [
      // T2 runs on from T1 (the Senna S): braking earlier into one changes the other.
      [LAP.A2, [1, 2]],
      [LAP.A3, [4, 5]],
      [LAP.A4, [14, 1]],
    ] as const) {
      for (const c of against(study, lap).corners)
        if (!(changed as readonly number[]).includes(c.corner)) expectSame(c, `lap ${lap}`);
    }
  });

  it('splits each lap’s difference into entry, middle and exit per corner, adding up to it', () => {
    for (const lap of [LAP.A2, LAP.A3, LAP.A4]) {
      const r = against(study, lap);
      const sum = r.corners.reduce((a, c) => a + c.entryLostS! + c.middleLostS! + c.exitLostS!, 0);
      expect(sum).toBeCloseTo(r.deltaSeconds, 2);
      expect(r.corners.reduce((a, c) => a + c.timeLostS!, 0)).toBeCloseTo(r.deltaSeconds, 2);
    }
    // Where the lap was changed is where it lost most.
    const worst = (lap: number) => [...against(study, lap).corners].sort((a, b) => b.timeLostS! - a.timeLostS!)[0]!;
    expect(worst(LAP.A3).corner).toBe(4);
  });

  it('measures lean from the device’s channel, trail braking and grip use', () => {
    expect(study.leanSource).toBe('device');
    const c = against(study, LAP.A2).corners.find((x) => x.corner === 1)!;
    expect(c.maxLeanDeg!).toBeGreaterThan(35);
    expect(c.maxLeanDeg!).toBeLessThan(60);
    expect(c.trailBrakeS!).toBeGreaterThan(0);
    expect(c.gripUsePct!).toBeGreaterThan(50);
    expect(c.gripUsePct!).toBeLessThanOrEqual(110);
    expect(study.ggEnvelope.every((g) => g >= 0 && g < 2)).toBe(true);
  });

  it('gives each corner’s spread over the flying laps', () => {
    const t1Spread = study.consistency.find((c) => c.corner === 1)!;
    expect(t1Spread.laps).toBe(analysis.laps.filter((l) => l.kind === 'flying').length);
    // One lap of five braked 15 m early: the spread shows it; T5's laps were alike.
    expect(t1Spread.brakeSpreadM!).toBeGreaterThan(4);
    expect(study.consistency.find((c) => c.corner === 9)!.minSpreadKmh!).toBeLessThan(1.5);
  });
});

describe('tips', () => {
  const { study } = session(25, 3);
  const r = against(study, LAP.A3);
  const t = (language: 'pt-BR' | 'en' | 'es') => translator(intlFor(language));

  it('at most three, largest gain first, in the rider’s language and units', () => {
    const tips = coachingTips(r, t('en'), 'en', 'metric', { kind: 'best' });
    expect(tips.length).toBeGreaterThan(0);
    expect(tips.length).toBeLessThanOrEqual(3);
    expect(tips[0]!.corner).toBe('T4');
    expect(tips.map((x) => x.gainS)).toEqual([...tips.map((x) => x.gainS)].sort((a, b) => b - a));
    expect(tips[0]!.text).toMatch(/^T4: .*[89] km\/h less to the apex.*: about 0\.\d s$/);
    expect(coachingTips(r, t('en'), 'en', 'imperial', { kind: 'best' })[0]!.text).toMatch(/5 mph less/);
    expect(coachingTips(r, t('pt-BR'), 'pt-BR', 'metric', { kind: 'best' })[0]!.text).toMatch(
      /^T4: .*[89] km\/h a menos ao ápice.*: cerca de 0,\d s$/,
    );
    expect(coachingTips(r, t('es'), 'es', 'metric', { kind: 'best' })[0]!.text).toMatch(/[89] km\/h menos al vértice/);
  });

  it('never cites a difference inside the accuracy', () => {
    for (const lap of [LAP.A2, LAP.A3, LAP.A4]) {
      const c = against(study, lap);
      for (const tip of coachingTips(c, t('en'), 'en', 'metric', { kind: 'best' })) {
        const corner = c.corners.find((x) => x.name === tip.corner)!;
        if (/you brake/.test(tip.text)) expect(Math.abs(corner.brakeDeltaM!)).toBeGreaterThan(corner.accuracyM);
        if (/less to the apex/.test(tip.text))
          expect(Math.abs(corner.minKmhDelta!)).toBeGreaterThan(corner.speedAccuracyKmh);
        if (/pick up the throttle/.test(tip.text))
          expect(corner.throttleAtDeltaM!).toBeGreaterThan(corner.throttleAccuracyM);
      }
    }
    // Two laps ridden the same way: no tip at all, or none beyond "slower through".
    const same = coachLap(study, LAP.A5, { kind: 'lap', study, lap: LAP.A5, sameSession: true }, corners)!;
    expect(coachingTips(same, t('en'), 'en', 'metric', { kind: 'best' })).toEqual([]);
  });
});

describe('what the trace cannot give is null, never a guess', () => {
  const { trace } = session(10, 4);

  it('without a lean channel, lean comes from the GPS and says so', () => {
    const flat: Trace = { ...trace, roll: new Float64Array(trace.count) };
    const analysis = analyzeTrack(flat, definition);
    const study = studySession(flat, definition, analysis);
    expect(study.leanSource).toBe('gps');
    const c = coachLap(study, 3, { kind: 'lap', study, lap: 6, sameSession: true }, corners)!;
    expect(c.leanSource).toBe('gps');
    // Lean from lateral g on the track's curvature: the same order as the device's.
    expect(c.corners.find((x) => x.corner === 1)!.maxLeanDeg!).toBeGreaterThan(30);
  });

  it('a corner ridden with a weak fix or a gap has no figures', () => {
    const weak: Trace = { ...trace, satellites: trace.satellites.slice() };
    const analysis = analyzeTrack(trace, definition);
    const lap = analysis.laps.find((l) => l.number === 3)!;
    // Weak fixes across T1 of lap 3.
    for (let i = lap.start.index; i < lap.start.index + 200; i++) weak.satellites[i] = 3;
    const study = studySession(weak, definition, analyzeTrack(weak, definition));
    const c = coachLap(study, 3, { kind: 'lap', study, lap: 6, sameSession: true }, corners)!;
    const first = c.corners.find((x) => x.corner === 1)!;
    expect(first.brakeDeltaM).toBeNull();
    expect(first.minKmh).toBeNull();
    expect(first.timeLostS).toBeNull();
    expect(c.corners.find((x) => x.corner === 8)!.minKmh).not.toBeNull();
  });

  it('a lap that is not complete is not studied', () => {
    const analysis = analyzeTrack(trace, definition);
    const study = studySession(trace, definition, analysis);
    const partial = analysis.laps.find((l) => !l.complete);
    if (partial) expect(coachLap(study, partial.number, { kind: 'ideal', study }, corners)).toBeNull();
    expect(study.laps.every((l) => analysis.laps.find((a) => a.number === l.number)!.complete)).toBe(true);
  });
});

describe('an ideal lap a rider could ride', () => {
  /** A flying lap of three sections with their times and the speed and line at each section's start. */
  const lap = (number: number, seconds: number[], kmh: number[], offsetM = [0, 0, 0]) =>
    ({
      number,
      kind: 'flying',
      seconds: seconds.reduce((a, b) => a + b, 0),
      sectionSeconds: seconds,
      sectionEntry: kmh.map((v, k) => ({ atM: k * 1000, kmh: v, offsetM: offsetM[k]! })),
    }) as unknown as AnalyzedLap;

  it('joins two laps only where their speed and line meet, and says where', () => {
    const a = lap(2, [30, 40, 30], [200, 150, 180]);
    // Lap 3 is faster in the middle, but arrives there 20 km/h slower: no rider links the two.
    const b = lap(3, [33, 38, 31], [200, 130, 180]);
    // Lap 4 is faster at the end and meets lap 2's speed and line there.
    const c = lap(4, [31, 41, 29], [200, 150, 182], [0, 0, 1.5]);
    const ideal = rideableIdeal([a, b, c], 3, a);
    expect(ideal.sections.map((s) => s.lap)).toEqual([2, 2, 4]);
    expect(ideal.seconds).toBe(99);
    expect(ideal.joins).toEqual([{ atM: 2000, from: 2, to: 4, kmhApart: 2, metresApart: 1.5 }]);
    // Without the speeds meeting, the sum of the best sections (97 s) is not rideable.
    const apart = lap(4, [31, 41, 29], [200, 150, 182], [0, 0, 6]);
    expect(rideableIdeal([a, b, apart], 3, a).sections.map((s) => s.lap)).toEqual([2, 2, 2]);
  });

  it('is never slower than the best lap ridden', () => {
    const best = lap(2, [30, 40, 30], [200, 150, 180]);
    const other = lap(3, [29, 42, 31], [200, 140, 170]);
    const ideal = rideableIdeal([best, other], 3, best);
    expect(ideal.seconds!).toBeLessThanOrEqual(best.seconds);
    for (const hz of [10, 25]) {
      const { analysis } = session(hz, 2);
      const fastest = Math.min(...analysis.laps.filter((l) => l.kind === 'flying').map((l) => l.seconds));
      expect(analysis.ideal.seconds!).toBeLessThanOrEqual(fastest);
      for (const j of analysis.ideal.joins) {
        expect(j.kmhApart).toBeLessThanOrEqual(IDEAL_JOIN_KMH);
        expect(j.metresApart).toBeLessThanOrEqual(IDEAL_JOIN_M);
      }
    }
  });
});

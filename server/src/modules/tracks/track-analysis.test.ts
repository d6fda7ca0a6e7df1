import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseGpsSix } from '#core/formats/gps-six.ts';
import { ImportReader } from '#core/imports/importer.ts';
import { sessionTrace } from '#core/imports/to-session.ts';
import { haversineM } from '#core/geo.ts';
import { generateSession, type TrackGeometry } from '#core/sim/session-generator.ts';
import { findCorners } from '#core/tracks/corners.ts';
import { studySession } from '#core/tracks/corner-study.ts';
import { compareLaps } from '#core/tracks/lap-comparison.ts';
import { coachLap } from '#core/tracks/lap-coaching.ts';
import type { Trace } from '#core/tracks/lap-timing.ts';
import { analyzeTrack } from '#core/tracks/track-analysis.ts';
import { definitionFromCatalogue, definitionFromTrace } from '#core/tracks/track-definition.ts';
import { trackLine, type TrackLine } from '#core/tracks/track-line.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { trackCatalogue } from './track-catalogue';

/** The same line driven the other way, still starting at the same point. */
function reversed(line: TrackLine): TrackLine {
  const n = line.x.length;
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    x[k] = line.x[(n - k) % n]!;
    y[k] = line.y[(n - k) % n]!;
  }
  return { ...line, x, y };
}

const tracks = loadTracks();
const byName = (name: string) => tracks.find((t) => t.name === name)!;
const traceOf = (track: TrackGeometry, seed: number, hz = 10): Trace =>
  parseGpsSix(generateSession(track, { seed, hz }).gpsSix).value;

describe('corners and segments', () => {
  it('every complete lap on every bundled circuit is cut into segments that add up to its time', () => {
    for (const [k, track] of tracks.entries()) {
      const trace = traceOf(track, 60 + k);
      const found = trackCatalogue().find(trace);
      const definition = found
        ? definitionFromCatalogue(found.track.outline, found.track.startFinish, found.forward)
        : definitionFromTrace(trace)!;
      const analysis = analyzeTrack(trace, definition);
      const complete = analysis.laps.filter((l) => l.complete);
      expect(complete.length, track.name).toBeGreaterThan(10);
      expect(analysis.segments.filter((s) => s.kind === 'corner').map((s) => s.corner)).toEqual(
        definition.corners.map((c) => c.number),
      );
      // Default sector gates: three, in order, each on a straight (at a section's cut, never inside a corner).
      expect(definition.sectors.map((g) => g.atM)).toEqual(
        [...definition.sectors.map((g) => g.atM)].sort((a, b) => a - b),
      );
      for (const g of definition.sectors)
        expect(
          definition.corners.some((c) => g.atM > c.startM && g.atM < c.endM),
          track.name,
        ).toBe(false);
      for (const lap of complete) {
        expect(lap.segmentSeconds.reduce((a, b) => a + b, 0)).toBeCloseTo(lap.seconds, 9);
        expect(lap.sectorSeconds).toHaveLength(4);
        expect(lap.sectorSeconds.reduce((a, b) => a + b, 0)).toBeCloseTo(lap.seconds, 9);
        expect(lap.segmentSeconds.every((s) => s >= 0)).toBe(true);
        expect(lap.sectionSeconds.filter((s) => s !== null).every((s) => s! > 0)).toBe(true);
      }
    }
  });

  it('where there is no outline, corners from two days’ best laps agree (a track keeps the first day’s, tracks.service)', () => {
    for (const name of ['Curitiba', 'Monza']) {
      const one = definitionFromTrace(traceOf(byName(name), 1))!;
      const other = definitionFromTrace(traceOf(byName(name), 2, 25))!;
      expect(one.corners.length).toBeGreaterThanOrEqual(7);
      expect(other.corners.map((c) => `T${c.number}${c.direction}`)).toEqual(
        one.corners.map((c) => `T${c.number}${c.direction}`),
      );
      // Each day's gate is where that day was fastest: apexes compared on the ground.
      for (const [k, c] of one.corners.entries())
        expect(haversineM(c.apex.lat, c.apex.lon, other.corners[k]!.apex.lat, other.corners[k]!.apex.lon)).toBeLessThan(
          60,
        );
    }
  });

  it('driven the other way, the corners come in the reverse order and turn the other way', () => {
    const track = byName('Interlagos');
    const line = trackLine(track.points, { lat: track.startFinish![0], lon: track.startFinish![1] });
    const forward = findCorners(line);
    const back = findCorners(reversed(line));
    expect(back.length).toBe(forward.length);
    expect(back.map((c) => c.direction)).toEqual(
      forward.map((c) => (c.direction === 'left' ? 'right' : 'left')).reverse(),
    );
    for (const [k, c] of back.entries()) {
      const twin = forward[forward.length - 1 - k]!;
      expect(haversineM(c.apex.lat, c.apex.lon, twin.apex.lat, twin.apex.lon)).toBeLessThan(30);
    }
  });
});

describe('ideal lap and where the time goes', () => {
  const track = byName('Interlagos');
  const trace = traceOf(track, 5);
  const found = trackCatalogue().find(trace)!;
  const definition = definitionFromCatalogue(found.track.outline, found.track.startFinish, found.forward);
  const analysis = analyzeTrack(trace, definition);
  const flying = analysis.laps.filter((l) => l.kind === 'flying');
  const best = flying.find((l) => l.number === analysis.bestLap)!;

  it('the ideal lap is the best of each section over the flying laps, no slower than the best lap', () => {
    expect(analysis.ideal.seconds).not.toBeNull();
    expect(analysis.ideal.seconds!).toBeLessThanOrEqual(best.seconds);
    expect(analysis.ideal.seconds!).toBeGreaterThan(best.seconds - 3);
    for (const [k, s] of analysis.ideal.sections.entries()) {
      const times = flying.map((l) => l.sectionSeconds[k]).filter((t): t is number => t !== null);
      expect(s.seconds).toBe(Math.min(...times));
      expect(flying.find((l) => l.number === s.lap)!.sectionSeconds[k]).toBe(s.seconds);
    }
  });

  it('a section ridden with a weak fix does not count', () => {
    const weak = { ...trace, satellites: trace.satellites.slice() };
    const lap = flying[2]!;
    for (let i = lap.start.index; i <= lap.end.index; i++) weak.satellites[i] = 4;
    const again = analyzeTrack(weak, definition);
    expect(again.laps.find((l) => l.number === lap.number)!.sectionSeconds.every((s) => s === null)).toBe(true);
    expect(again.ideal.sections.every((s) => s.lap !== lap.number)).toBe(true);
  });

  /** Every `keep`-th fix of the trace (a phone's 1 Hz logger, from 10 Hz), except those in `skip`. */
  const thinned = (keep: number, skip = new Set<number>()): Trace => {
    const at = [...Array(Math.ceil(trace.count / keep)).keys()].map((k) => k * keep).filter((i) => !skip.has(i));
    return {
      count: at.length,
      lat: Float64Array.from(at, (i) => trace.lat[i]!),
      lon: Float64Array.from(at, (i) => trace.lon[i]!),
      // A phone's fixes come a few ms early or late, so most intervals are just over a second.
      timeMs: Float64Array.from(at, (i, k) => trace.timeMs[i]! + (k % 3) * 4),
      speed: Float64Array.from(at, (i) => trace.speed[i]!),
      satellites: Uint16Array.from(at, (i) => trace.satellites[i]!),
    };
  };

  it('a file without lean (0 throughout) gives its corners no lean, rather than 0°', () => {
    const corners = (t: Trace) => analyzeTrack(t, definition).laps.find((l) => l.kind === 'flying')!.corners;
    expect(corners(trace).every((c) => c.maxLeanDeg !== null && Math.abs(c.maxLeanDeg) > 5)).toBe(true);
    const flat = corners({ ...trace, roll: new Float64Array(trace.count) });
    expect(flat.map((c) => c.maxLeanDeg)).toEqual(flat.map(() => null));
  });

  it('a 1 Hz logger has an ideal lap too; a gap of several of its fixes inside a section does not count', () => {
    const phone = analyzeTrack(thinned(10), definition);
    expect(phone.ideal.seconds).not.toBeNull();
    expect(Math.abs(phone.ideal.seconds! - analysis.ideal.seconds!)).toBeLessThan(1);
    // Three fixes missing in the middle of a lap: 4 s without a fix.
    const lap = phone.laps.find((l) => l.kind === 'flying')!;
    const middle = Math.round((lap.start.index + lap.end.index) / 2) * 10;
    const gap = analyzeTrack(thinned(10, new Set([middle - 10, middle, middle + 10])), definition);
    const again = gap.laps.find((l) => l.number === lap.number)!;
    // The section around the gap (or the two it spans), not the others.
    const lost = again.sectionSeconds.filter((s) => s === null).length;
    expect(lost).toBeGreaterThan(0);
    expect(lost).toBeLessThanOrEqual(2);
    expect(lap.sectionSeconds.every((s) => s !== null)).toBe(true);
  });

  it('against the best lap, a slower lap’s losses add up to the difference, largest first, with what differed', () => {
    const slower = flying.reduce((a, b) => (b.seconds > a.seconds ? b : a));
    const comparison = compareLaps(slower, best, analysis.segments);
    expect(comparison.deltaSeconds).toBeCloseTo(slower.seconds - best.seconds, 9);
    expect(comparison.segments.reduce((sum, s) => sum + s.deltaSeconds, 0)).toBeCloseTo(comparison.deltaSeconds, 9);
    expect(comparison.segments.map((s) => s.deltaSeconds)).toEqual(
      comparison.segments.map((s) => s.deltaSeconds).sort((a, b) => b - a),
    );
    const corner = comparison.segments.find((s) => s.kind === 'corner')!;
    expect(corner.apexKmh).toEqual(expect.any(Number));
    expect(corner.exitKmh).toEqual(expect.any(Number));
    const straight = comparison.segments.find((s) => s.kind === 'straight')!;
    expect(straight.topKmh).toEqual(expect.any(Number));
  });

  it('corner figures a rider reads: slower at the apex than at entry and exit, braking before it, leaning into it', () => {
    for (const c of best.corners) {
      expect(c.minKmh).toBeLessThanOrEqual(c.entryKmh + 1);
      expect(c.minKmh).toBeLessThanOrEqual(c.exitKmh + 1);
      expect(Math.abs(c.maxLeanDeg!)).toBeGreaterThan(10);
      const corner = definition.corners.find((k) => k.number === c.corner)!;
      // Lean to the left in a left-hand corner (negative roll), to the right in a right-hander.
      expect(Math.sign(c.maxLeanDeg!), `T${c.corner}`).toBe(corner.direction === 'left' ? -1 : 1);
    }
    const braked = best.corners.filter((c) => c.brakeBeforeApexM !== null);
    expect(braked.length).toBeGreaterThan(best.corners.length / 2);
    expect(braked.every((c) => c.brakeBeforeApexM! > 0 && c.brakeBeforeApexM! < 600)).toBe(true);
  });
});

/** A real recording analysed at the catalogue's circuit: its first flying lap, the analysis and the corner study. */
function realLap(folder: string, file: string) {
  const bytes = gunzipSync(readFileSync(new URL(`../../../test/real-recordings/${folder}/${file}`, import.meta.url)));
  const reader = new ImportReader(file.replace(/\.gz$/, ''), bytes.length);
  reader.push(bytes);
  const read = reader.finish();
  if (read.kind !== 'trace') throw new Error(`${file}: no trace`);
  const trace = sessionTrace(read.file.trace);
  const found = trackCatalogue().find(trace)!;
  const definition = definitionFromCatalogue(found.track.outline, found.track.startFinish, found.forward);
  const analysis = analyzeTrack(trace, definition);
  return {
    lap: analysis.laps.find((l) => l.kind === 'flying')!,
    segments: analysis.segments,
    study: studySession(trace, definition, analysis),
    corners: definition.corners,
    analysis,
  };
}
// Two sessions of one rider at Tianma (RaceChrono, 25 Hz), read once for both groups below.
const lap9 = realLap('racechrono-tianma-lap9', 'session_20251231_111318_tianma_lap9_v3.csv.gz');
const lap13 = realLap('racechrono-tianma-lap13', 'session_20251231_111959_tianma_lap13_v3.csv.gz');

describe('real laps: RaceChrono at Tianma (25 Hz on a merged timeline, its speeds jitter), TrackAddict at the Spreewaldring', () => {
  it('a lap that leaves a rough outline (the Spreewaldring’s, another layout) has figures for the corners it reached only', () => {
    const stc = realLap('trackaddict-stc-2019', 'STC_log.csv.gz');
    expect(stc.lap.corners.map((c) => c.corner)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (const c of stc.lap.corners) expect(c.seconds, `T${c.corner}`).toBeGreaterThan(1);
    expect(stc.lap.sectionSeconds.every((s) => s === null)).toBe(true);
  });

  it('braking for T1 began on the straight, from over 150 km/h, in both laps (not at a lift mid-corner)', () => {
    for (const { lap } of [lap9, lap13]) {
      const t1 = lap.corners[0]!;
      expect(t1.topKmhBefore).toBeGreaterThan(150);
      expect(t1.brakeBeforeApexM).toBeGreaterThan(80);
    }
  });

  it('"braked earlier" compares where along the track each began braking, not how far from its own apex', () => {
    const c = compareLaps(lap9.lap, lap13.lap, lap9.segments);
    const braked = (corner: number) =>
      c.segments.find((s) => s.corner === corner && s.kind === 'corner')!.brakedEarlierM!;
    // The same rider a few laps apart: their braking points lie metres apart, not the 60-110 m once said.
    expect(Math.abs(braked(1))).toBeLessThan(20);
    expect(Math.abs(braked(2))).toBeLessThan(20);
  });
});

describe('the corner study on real laps: RaceChrono at Tianma, 25 Hz, two sessions of one rider', () => {
  const number = (at: typeof lap9) => at.analysis.laps.find((l) => l.kind === 'flying')!.number;
  const study = coachLap(
    lap9.study,
    number(lap9),
    { kind: 'lap', study: lap13.study, lap: number(lap13), sameSession: false },
    lap9.corners,
  )!;

  it('finds a sharp braking point to a few metres, and widens the accuracy where braking comes in steps', () => {
    // The file merges OBD rows into the GPS timeline (46-77 rows a second, positions interpolated).
    expect(lap9.study.hz).toBeGreaterThanOrEqual(24);
    expect(study.deltaSeconds).toBeCloseTo(76.336 - 75.935, 1);
    expect(study.corners.filter((c) => c.brakeStartM !== null).length).toBeGreaterThanOrEqual(4);
    // T5: one hard stop (over 1 g): its point to a few metres, the same in both laps.
    const t5 = study.corners.find((c) => c.name === 'T5')!;
    expect(t5.brakePeakG!).toBeGreaterThan(1);
    expect(t5.accuracyM).toBeLessThan(8);
    expect(t5.verdicts.brake).toBe('same');
    // T1: a lift on the straight, then the brakes: either could be called the braking point.
    const t1 = study.corners[0]!;
    expect(t1.accuracyM).toBeGreaterThan(20);
    expect(t1.verdicts.brake).toBe('same');
  });

  it('the time lost per corner adds up to the laps’ difference', () => {
    const sum = study.corners.reduce((a, c) => a + (c.timeLostS ?? 0), 0);
    expect(sum).toBeCloseTo(study.deltaSeconds, 1);
  });

  it('a car’s recording has no lean sensor worth the name: lean is labelled as from the GPS or the file', () => {
    expect(['device', 'gps']).toContain(study.leanSource);
    for (const c of study.corners) if (c.maxLeanDeg !== null) expect(c.maxLeanDeg).toBeLessThan(70);
  });
});

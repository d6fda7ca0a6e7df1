import { describe, expect, it } from 'vitest';
import { parseGpsSix } from '#core/formats/gps-six.ts';
import { generateSession } from '#core/sim/session-generator.ts';
import { timeLaps, type Trace } from '#core/tracks/lap-timing.ts';
import { catalogueStartFinish, derivedStartFinish } from '#core/tracks/start-finish.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { createTrackCatalogue, parseCatalogue, trackCatalogue } from './track-catalogue';

const tracks = loadTracks();
const traceOf = (gpsSix: string): Trace => parseGpsSix(gpsSix).value;

/** True flying-lap times of a generated session (lap.six holds the generator's exact times). */
function flyingTruth(gen: ReturnType<typeof generateSession>): number[] {
  const last = (heat: string) => Math.max(...gen.laps.filter((m) => m.heat === heat).map((m) => m.lapCount));
  return gen.laps.filter((l) => l.lapCount > 0 && l.lapCount < last(l.heat)).map((l) => l.lapTimeMs / 1000);
}

describe('the shipped track catalogue', () => {
  const catalogue = trackCatalogue();

  it('holds the 5,543 circuits, searchable by name without accents', () => {
    expect(catalogue.size).toBe(5543);
    const found = catalogue.search('autodromo interlagos').map((t) => t.name);
    expect(found.some((n) => /Interlagos/.test(n))).toBe(true);
    expect(catalogue.search('CURITIBA').map((t) => t.name)).toContain('Autódromo Internacional de Curitiba');
    expect(catalogue.search('   ')).toEqual([]);
    expect(catalogue.search('no such circuit anywhere')).toEqual([]);
  });

  it('finds the circuit a trace runs along, and times its laps through its start/finish gate', () => {
    for (const name of ['Interlagos', 'Curitiba']) {
      const track = tracks.find((t) => t.name === name)!;
      const gen = generateSession(track, { seed: 7, heats: 1, lapsPerHeat: [5, 5], gpsNoise: 0.3 });
      const trace = traceOf(gen.gpsSix);
      const found = catalogue.find(trace);
      expect(found?.track.name, name).toMatch(new RegExp(name));
      const gate = catalogueStartFinish(found!.track.outline, found!.track.startFinish, found!.forward);
      const flying = timeLaps(trace, gate).filter((l) => l.kind === 'flying');
      // The catalogue's point is not where the generator's laps start: the same laps, timed some
      // metres on (a lap's pace there differs a little from the next one's).
      expect(flying.map((l) => l.seconds)).toEqual(flyingTruth(gen).map((s) => expect.closeTo(s, 0)));
    }
  });

  it('reversed direction: the same circuit, the gate facing the other way', () => {
    const track = tracks.find((t) => t.name === 'Curitiba')!;
    const reversed = { ...track, points: track.points.slice().reverse() };
    const found = catalogue.find(traceOf(generateSession(reversed, { seed: 8, heats: 1, lapsPerHeat: [3, 3] }).gpsSix));
    expect(found?.track.name).toMatch(/Curitiba/);
    expect(found?.forward).toBe(false);
  });

  it('a trace at a place it does not know: no circuit, and a start/finish from the trace that times the laps', () => {
    const track = tracks.find((t) => t.name === 'Interlagos')!;
    // The same circuit moved to the middle of the South Atlantic.
    const moved = {
      ...track,
      points: track.points.map(([lat, lon]) => [lat - 10, lon + 20] as [number, number]),
      startFinish: undefined,
    };
    const gen = generateSession(moved, { seed: 9, heats: 2, lapsPerHeat: [4, 4], gpsNoise: 0.3 });
    const trace = traceOf(gen.gpsSix);
    expect(catalogue.find(trace)).toBeUndefined();
    const derived = derivedStartFinish(trace)!;
    const laps = timeLaps(trace, derived.gate);
    expect(derived.at.lat).toBeLessThan(-30);
    // Timed at the fastest point, mid-straight, the laps run from there: each run crosses it once
    // a lap, and its best lap is the true best give or take the pace either side of the point.
    const perRun = [1, 2].map((run) => laps.filter((l) => l.run === run && l.complete).length);
    expect(perRun).toEqual([5, 5]);
    const best = Math.min(...laps.filter((l) => l.kind === 'flying').map((l) => l.seconds));
    expect(best).toBeCloseTo(Math.min(...flyingTruth(gen)), 0);
  });
});

describe('catalogue lines', () => {
  it('skips an outline of fewer than two points; a broken line is an error, not a silent gap', () => {
    const ok = '{"id":"a","name":"A","short_name":"A","start_finish":[1,2],"pts":[[1,2],[3,4],[5,6]]}';
    const tiny = '{"id":"b","name":"B","start_finish":[1,2],"pts":[[1,2]]}';
    expect(parseCatalogue(`${ok}\n${tiny}\n`).map((t) => t.id)).toEqual(['a']);
    expect(() => parseCatalogue(`${ok}\n{"id":`)).toThrow();
    expect(createTrackCatalogue(parseCatalogue(ok)).get('a')?.startFinish).toEqual([1e-7, 2e-7]);
  });
});

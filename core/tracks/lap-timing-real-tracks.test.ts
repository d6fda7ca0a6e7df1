import { describe, expect, it } from 'vitest';
import { parseGpsSix } from '../formats/gps-six';
import { buildRacingLine, generateSession, type TrackGeometry } from '../sim/session-generator';
import { gateAcross, type Gate } from './gate';
import { timeLaps, type Trace } from './lap-timing';
import { loadTracks } from '../test-support/track-files';

// Lap timing from the trace against the exact truth: the generator knows the continuous path,
// and each of its laps starts where its racing line starts (index 0), at a known time.

const tracks = loadTracks();

/** The gate across the generator's line at its start, facing the way it is driven. */
function trueGate(track: TrackGeometry): Gate {
  const line = buildRacingLine(track);
  const [lat, lon] = line.proj.toLatLon(line.x[0]!, line.y[0]!);
  return gateAcross({ lat, lon }, line.x[1]! - line.x[0]!, line.y[1]! - line.y[0]!);
}

function traceOf(gpsSix: string): Trace {
  return parseGpsSix(gpsSix).value;
}

/**
 * GPS noise: the generator's model (position errors correlated over ~2 s, as a GPS module's
 * are) at two levels. 0.3: σ ≈ 0.25 m, what the real 10 Hz recording in the catalogue's notes
 * implies (its gate lap times came within 0.01 s of the logger's timer). 1: the generator's
 * default, σ ≈ 0.8 m, a poor fix: a lap's two crossings are each off by ~0.012 s at 250 km/h,
 * and over a few dozen laps the worst comes to ~0.06 s.
 */
const LEVELS = [
  { noise: 0.3, tolerance: { 1: 0.1, 5: 0.04, 10: 0.02, 25: 0.02 } as Record<number, number> },
  { noise: 1, tolerance: { 1: 0.15, 5: 0.1, 10: 0.08, 25: 0.08 } as Record<number, number> },
];

describe('lap timing from the GPS trace', () => {
  for (const { noise, tolerance } of LEVELS) {
    for (const hz of [1, 5, 10, 25]) {
      it(`${hz} Hz, noise ×${noise}: every flying lap within ${tolerance[hz]} s of the truth; out- and in-laps marked`, () => {
        let worst = 0;
        for (const [k, track] of tracks.entries()) {
          const gen = generateSession(track, { seed: 40 + k, hz, heats: 2, lapsPerHeat: [4, 6], gpsNoise: noise });
          const laps = timeLaps(traceOf(gen.gpsSix), trueGate(track));
          const lastOfHeat = (heat: string) =>
            Math.max(...gen.laps.filter((m) => m.heat === heat).map((m) => m.lapCount));
          const truth = gen.laps.filter((l) => l.lapCount > 0 && l.lapCount < lastOfHeat(l.heat));
          const flying = laps.filter((l) => l.kind === 'flying');
          expect(flying.map((l) => l.run)).toEqual(truth.map((l) => (l.heat === 'A' ? 1 : 2)));
          const errors = flying.map((l, i) => Math.abs(l.seconds - truth[i]!.lapTimeMs / 1000));
          worst = Math.max(worst, ...errors);
          expect(laps.filter((l) => l.kind === 'out').map((l) => l.run)).toEqual([1, 2]);
          expect(laps.filter((l) => l.kind === 'in').map((l) => l.run)).toEqual([1, 2]);
        }
        expect(worst).toBeLessThanOrEqual(tolerance[hz]!);
      });
    }
  }
});

describe('runs of a day', () => {
  const track = tracks.find((t) => t.name === 'Interlagos')!;
  const c = parseGpsSix(generateSession(track, { seed: 5, hz: 10, heats: 2, lapsPerHeat: [3, 4] }).gpsSix).value;
  const second = c.heat.indexOf(1);

  it('a pause in the recording ends a run even where the next fix stands still (a logger restarted in the pits)', () => {
    // A file without heats (an import) whose second heat opens standing still after the pause.
    const trace: Trace = { ...c, heat: undefined, speed: c.speed.slice() };
    for (let i = second; i < second + 50; i++) trace.speed[i] = 0;
    const laps = timeLaps(trace, trueGate(track));
    expect(new Set(laps.map((l) => l.run))).toEqual(new Set([1, 2]));
    expect(Math.max(...laps.filter((l) => l.complete).map((l) => l.seconds))).toBeLessThan(200);
    // The same with the device's heats: a new heat starting still is a new run too.
    expect(new Set(timeLaps({ ...trace, heat: c.heat }, trueGate(track)).map((l) => l.run))).toEqual(new Set([1, 2]));
  });
});

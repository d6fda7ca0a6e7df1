import { describe, expect, it } from 'vitest';
import { parseGpsSix } from '#core/formats/gps-six.ts';
import { parseLapSix } from '#core/formats/lap-six.ts';
import { analyzeSession } from '#core/laps/lap-math.ts';
import { closedLengthM, haversineM } from '#core/geo.ts';
import { generateSession } from '#core/sim/session-generator.ts';
import { loadTracks } from './track-files';

describe('session generator on the real track geometries', () => {
  for (const track of loadTracks()) {
    it(`${track.name}: lap distances within 2 % of the track length, files that parse cleanly`, () => {
      const reference = track.officialLengthM ?? closedLengthM(track.points);
      const session = generateSession(track, { seed: 7, heats: 2, lapsPerHeat: [3, 4] });
      const laps = parseLapSix(session.lapSix);
      const gps = parseGpsSix(session.gpsSix);
      expect(laps.problems).toEqual([]);
      expect(gps.problems).toEqual([]);
      for (const lap of laps.value) {
        expect(Math.abs(lap.distanceM - reference) / reference).toBeLessThan(0.02);
        expect(lap.sectors.reduce((a, s) => a + s.distanceM, 0)).toBe(lap.distanceM);
        expect(Math.abs(lap.sectors.reduce((a, s) => a + s.timerMs, 0) - lap.lapTimeMs)).toBeLessThanOrEqual(2);
      }
      // Distance measured from the noisy GPS samples of each flying lap is within 2 % too.
      const c = gps.value;
      const perLap = new Map<string, number>();
      for (let i = 1; i < c.count; i++) {
        if (c.lapCount[i] !== c.lapCount[i - 1] || c.heat[i] !== c.heat[i - 1]) continue;
        const key = `${c.heat[i]}-${c.lapCount[i]}`;
        perLap.set(key, (perLap.get(key) ?? 0) + haversineM(c.lat[i - 1]!, c.lon[i - 1]!, c.lat[i]!, c.lon[i]!));
      }
      for (const [key, d] of perLap) {
        // The last sample of a lap stands up to one sample interval short of the line.
        expect(Math.abs(d - reference) / reference, key).toBeLessThan(0.02);
      }
      // 10 Hz by default.
      expect(c.timeMs[1]! - c.timeMs[0]!).toBeCloseTo(100, 0);
      // Realistic figures for a track-day rider.
      expect(session.topSpeedKmh).toBeGreaterThan(180);
      expect(session.topSpeedKmh).toBeLessThan(300);
      expect(session.maxLeanLeftDeg).toBeLessThan(-35);
      expect(session.maxLeanRightDeg).toBeGreaterThan(35);
      const a = analyzeSession(laps.value);
      expect(a.laps.filter((l) => l.kind === 'out')).toHaveLength(2);
      expect(a.laps.filter((l) => l.kind === 'in')).toHaveLength(2);
      const flying = laps.value.filter((_, i) => a.laps[i]!.kind === 'flying').map((l) => l.lapTimeMs);
      const spread = (Math.max(...flying) - Math.min(...flying)) / Math.min(...flying);
      expect(spread).toBeGreaterThan(0.002); // laps vary like a real rider's…
      expect(spread).toBeLessThan(0.08); // …without absurd outliers
    });
  }

  it('is deterministic for a seed, and 25 Hz is an option', () => {
    const [track] = loadTracks();
    const a = generateSession(track!, { seed: 42, heats: 1, lapsPerHeat: [2, 2] });
    const b = generateSession(track!, { seed: 42, heats: 1, lapsPerHeat: [2, 2] });
    expect(a.gpsSix).toBe(b.gpsSix);
    expect(a.lapSix).toBe(b.lapSix);
    const fast = generateSession(track!, { seed: 42, heats: 1, lapsPerHeat: [2, 2], hz: 25 });
    expect(fast.sampleCount / a.sampleCount).toBeCloseTo(2.5, 1);
  });
});

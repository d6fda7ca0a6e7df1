import { describe, expect, it } from 'vitest';
import { msToLapTimeRaw, type Lap } from '../formats/lap-six';
import { type Heat } from '../formats/six-lines';
import { analyzeSession, classifyLaps, consistencyMs, lapFigures } from './lap-math';

function lap(lapCount: number, heat: Heat, sectors: [number, number, number, number]): Lap {
  const ms = sectors.reduce((a, b) => a + b, 0);
  return {
    line: lapCount + 1,
    lapTime: msToLapTimeRaw(ms),
    lapTimeMs: ms,
    heat,
    lapSeconds: ms / 1000,
    sectors: sectors.map((t) => ({
      timerMs: t,
      upFlag: 0,
      upMax: 0,
      upTrack: 0,
      displayTime: (t / 1000).toFixed(3),
      distanceM: 1000,
    })) as Lap['sectors'],
    sprintCount: 0,
    distanceM: 4309,
    lapCount,
  };
}

describe('lap maths', () => {
  const laps = [
    lap(0, 'A', [40000, 40000, 40000, 40000]), // out-lap: never counts for best
    lap(1, 'A', [23000, 25000, 22000, 22500]), // 92.500
    lap(2, 'A', [22800, 25000, 22100, 22400]), // 92.300 best lap
    lap(3, 'A', [23100, 24900, 21900, 22700]), // 92.600
    lap(4, 'A', [30000, 30000, 30000, 30000]), // 120.000 in-lap
    lap(0, 'B', [41000, 41000, 41000, 41000]), // out-lap
    lap(1, 'B', [22900, 25100, 22200, 22300]), // 92.500
  ];

  it('marks out-laps (lapCount 0) and the slow last lap of a heat as in-lap', () => {
    expect(classifyLaps(laps)).toEqual(['out', 'flying', 'flying', 'flying', 'in', 'out', 'flying']);
  });

  it('finds the best lap, best sectors, theoretical best and gaps over flying laps only', () => {
    const a = analyzeSession(laps);
    expect(a.bestIndex).toBe(2);
    expect(a.bestLapMs).toBe(92300);
    expect(a.bestSectorsMs).toEqual([22800, 24900, 21900, 22300]);
    expect(a.theoreticalBestMs).toBe(91900);
    expect(a.laps.map((l) => l.gapMs)).toEqual([67700, 200, 0, 300, 27700, 71700, 200]);
    expect(a.laps.map((l) => l.isBest)).toEqual([false, false, true, false, false, false, false]);
    expect(a.laps[2]!.bestSectors).toEqual([true, false, false, false]);
    expect(a.laps[3]!.bestSectors).toEqual([false, true, true, false]);
    expect(a.laps[6]!.bestSectors).toEqual([false, false, false, true]);
    expect(a.laps[0]!.bestSectors).toEqual([false, false, false, false]);
    expect(a.heats).toEqual(['A', 'B']);
  });

  it('has no best with no flying lap', () => {
    const a = analyzeSession([lap(0, 'A', [1, 2, 3, 4])]);
    expect(a).toMatchObject({ bestIndex: -1, bestLapMs: null, theoreticalBestMs: null });
    expect(analyzeSession([]).laps).toEqual([]);
  });
});

describe('consistency', () => {
  it('is the sample standard deviation of the fastest 80 % of the flying laps', () => {
    // Ten laps: the two slowest (traffic, a mistake) are left out; the other eight are 90 s ± 0.5 s.
    const laps = [89_500, 90_500, 89_500, 90_500, 89_500, 90_500, 89_500, 90_500, 95_000, 99_000];
    // Eight values, four each side of 90 s by 0.5 s: variance = 8 × 0.25 s² / 7.
    expect(consistencyMs(laps)).toBe(Math.round(Math.sqrt((8 * 500 ** 2) / 7)));
    expect(consistencyMs([90_000, 90_000, 90_000])).toBe(0);
  });

  it('says nothing with fewer than three flying laps', () => {
    expect(consistencyMs([])).toBeNull();
    expect(consistencyMs([90_000, 91_000])).toBeNull();
  });

  it('is kept with the best lap, the ideal lap and the heats of a session', () => {
    const laps = [
      lap(0, 'A', [40000, 40000, 40000, 40000]),
      lap(1, 'A', [23000, 25000, 22000, 22500]),
      lap(2, 'A', [22800, 25000, 22100, 22400]),
      lap(3, 'A', [23100, 24900, 21900, 22700]),
      lap(4, 'A', [30000, 30000, 30000, 30000]),
      lap(0, 'B', [41000, 41000, 41000, 41000]),
      lap(1, 'B', [22900, 25100, 22200, 22300]),
    ];
    const f = lapFigures(laps);
    expect(f).toMatchObject({
      bestLapMs: 92300,
      bestLap: { heat: 'A', lapCount: 2 },
      theoreticalBestMs: 22800 + 24900 + 21900 + 22300,
      flyingLaps: 4,
      heats: 2,
    });
    // Flying: 92.5, 92.3, 92.6, 92.5 → the fastest three (80 % of 4): 92.3, 92.5, 92.5.
    // Mean 92 433.3; deviations −133.3, +66.7, +66.7: √(26 666.7 / 2) = 115.5 ms.
    expect(f.consistencyMs).toBe(115);
    expect(f.meanLapMs).toBe(Math.round((92300 + 92500 + 92500) / 3));
  });
});

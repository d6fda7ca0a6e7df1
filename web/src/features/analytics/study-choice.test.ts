import { describe, expect, it } from 'vitest';
import { lossesToIdeal, serverChoice, studyOf, topIdealLosses } from './study-choice';

const lap = (
  index: number,
  seconds: number,
  sectionSeconds: (number | null)[],
  kind: 'out' | 'flying' | 'in' = 'flying',
) => ({
  index,
  heat: 'A' as const,
  number: index - 1,
  seconds,
  gpsSeconds: seconds,
  timeSource: 'gps' as const,
  kind,
  complete: true,
  deviceSeconds: null,
  differs: false,
  segmentSeconds: [],
  sectorSeconds: [],
  sectionSeconds,
});
// Lap 3 is the best (and the last flying lap: the old default compared it with itself).
const data = {
  laps: [lap(1, 150, [50, 50, 50], 'out'), lap(2, 121, [40.2, 40.5, 40.3]), lap(3, 120.3, [40.4, 39.8, 40.1])],
  idealLap: [
    { corner: 1, seconds: 40.2, lap: 2 },
    { corner: 2, seconds: 39.8, lap: 3 },
    { corner: 3, seconds: 40.1, lap: 3 },
  ],
  idealLapSeconds: 120.1,
  bestLap: 3,
};

describe('the first study of "Onde você perde tempo"', () => {
  it('opens on the best lap against the ideal lap: where it lost time to the session’s best passages', () => {
    const study = studyOf(data, {});
    expect(study).toEqual({ mode: 'ideal', lap: 3, automatic: true });
    expect(serverChoice(study)).toEqual({});
    const losses = topIdealLosses(lossesToIdeal(data, 3));
    expect(losses).toHaveLength(1);
    expect(losses[0]).toMatchObject({ corner: 1, fromLap: 2 });
    expect(losses[0]!.deltaSeconds).toBeCloseTo(0.2);
  });

  it('where the best lap is the ideal lap, the most recent other flying lap against the best; never a lap against itself', () => {
    const perfect = {
      ...data,
      idealLap: data.idealLap.map((p) => ({ ...p, seconds: 40, lap: 3 })),
      laps: data.laps.map((l) => (l.index === 3 ? { ...l, sectionSeconds: [40, 40, 40] } : l)),
    };
    expect(studyOf(perfect, {})).toEqual({ mode: 'lap', lap: 2, automatic: true });
    expect(studyOf({ ...data, idealLapSeconds: null }, {})).toEqual({ mode: 'lap', lap: 2, automatic: true });
  });

  it('follows the address: a lap against another lap, or a chosen lap against the ideal', () => {
    expect(studyOf(data, { lap: 2, reference: 3 })).toEqual({ mode: 'lap', lap: 2, reference: 3, automatic: false });
    expect(serverChoice(studyOf(data, { lap: 2, reference: 3 }))).toEqual({ lap: 2, reference: 3 });
    expect(studyOf(data, { lap: 2, reference: 'ideal' })).toEqual({ mode: 'ideal', lap: 2, automatic: false });
  });

  it('against the record: the lap chosen, else the best lap, and nothing more asked of the track analysis', () => {
    expect(studyOf(data, { lap: 2, reference: 'record' })).toEqual({ mode: 'record', lap: 2, automatic: false });
    expect(studyOf(data, { reference: 'record' })).toEqual({ mode: 'record', lap: 3, automatic: false });
    expect(studyOf(undefined, { lap: 2, reference: 'record' })).toEqual({ mode: 'record', lap: 2, automatic: false });
    expect(serverChoice(studyOf(data, { lap: 2, reference: 'record' }))).toEqual({});
  });
});

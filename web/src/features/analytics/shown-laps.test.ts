import { describe, expect, it } from 'vitest';
import { listedTopSpeed, type ShownLap } from './shown-laps';

const segment = (heat: 'A' | 'B', lapCount: number, topSpeedKmh: number) => ({ heat, lapCount, topSpeedKmh });

describe('listedTopSpeed', () => {
  // Issue 60: "218,9 km/h volta A6" named an in-lap the laps list shows with no time.
  const analysis = {
    laps: [segment('A', 1, 190), segment('A', 2, 214.2), segment('A', 3, 216.4), segment('A', 6, 218.9)],
    topSpeedKmh: 218.9,
    topSpeedHeat: 'A' as const,
    topSpeedLap: 6,
  };
  const shown = new Map<string, ShownLap>([
    ['A1', { kind: 'out', seconds: null }],
    ['A2', { kind: 'flying', seconds: 92.1 }],
    ['A3', { kind: 'flying', seconds: 91.5 }],
    ['A6', { kind: 'in', seconds: null }],
  ]);

  it('takes the top speed of the flying laps the list shows, named as it names them', () => {
    expect(listedTopSpeed(analysis, shown)).toEqual({ kmh: 216.4, lap: 'A3' });
  });

  it('is the whole file’s while no flying lap is listed', () => {
    expect(listedTopSpeed(analysis, new Map())).toEqual({ kmh: 218.9, lap: 'A6' });
  });
});

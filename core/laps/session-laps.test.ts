import { describe, expect, it } from 'vitest';
import { lapRenames } from './session-laps';

const laps = (...xs: [string, number][]) => xs.map(([name, ms]) => ({ name, ms }));

describe('lapRenames: a session built again keeps naming each lap by its time', () => {
  it('an earlier run added in front: heat A becomes heat B, each lap followed by its time', () => {
    const before = laps(['A1', 75_934], ['A2', 76_120]);
    const after = laps(['A1', 76_329], ['B1', 75_934], ['B2', 76_120]);
    expect(lapRenames(before, after)).toEqual(
      new Map([
        ['A1', 'B1'],
        ['A2', 'B2'],
      ]),
    );
  });

  it('a lap whose name still holds its time keeps its name, even where another lap has the same time', () => {
    const before = laps(['A1', 80_000], ['A2', 79_500]);
    const after = laps(['A1', 80_000], ['A2', 79_500], ['B1', 80_000]);
    expect(lapRenames(before, after)).toEqual(
      new Map([
        ['A1', 'A1'],
        ['A2', 'A2'],
      ]),
    );
  });

  it('a lap whose time no lap has now, or two laps of other names have, is left out (a millisecond apart is the same)', () => {
    const before = laps(['A1', 80_000], ['A2', 79_500], ['A3', 79_000]);
    const after = laps(['B1', 80_100], ['B2', 79_500], ['C2', 79_500], ['B3', 79_001]);
    expect(lapRenames(before, after)).toEqual(new Map([['A3', 'B3']]));
  });
});

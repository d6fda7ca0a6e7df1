import { describe, expect, it } from 'vitest';
import { allocGpsColumns, type GpsColumns } from '../formats/gps-columns';
import { parseGpsSix } from '../formats/gps-six';
import { parseLapSix } from '../formats/lap-six';
import { generateSession } from '../sim/session-generator';
import { loadTracks } from '../test-support/track-files';
import { analyzeTrack } from '../tracks/track-analysis';
import { definitionFromCatalogue } from '../tracks/track-definition';
import { lapRenames, listLaps } from './session-laps';

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

describe('listLaps: a device session whose out-lap holds a stop (waiting at the pit exit)', () => {
  const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;
  const definition = definitionFromCatalogue(interlagos.points, interlagos.startFinish!, true);
  const generated = generateSession(interlagos, { seed: 3, heats: 2, lapsPerHeat: [3, 3] });
  const device = parseLapSix(generated.lapSix).value;
  const recorded = parseGpsSix(generated.gpsSix).value;

  /** The recording with the bike standing `seconds` at sample `at` (10 Hz), everything after it later by as much. */
  function withStand(c: GpsColumns, at: number, seconds: number): GpsColumns {
    const extra = seconds * 10;
    const n = c.count + extra;
    const out = allocGpsColumns(n);
    for (const key of Object.keys(c) as (keyof GpsColumns)[]) {
      const from = c[key];
      const to = out[key];
      if (!ArrayBuffer.isView(from) || !ArrayBuffer.isView(to)) continue;
      const [src, dst] = [from as unknown as Float64Array, to as unknown as Float64Array];
      for (let i = 0; i < n; i++) dst[i] = src[i < at ? i : i < at + extra ? at : i - extra]!;
    }
    for (let i = at; i < n; i++) {
      out.timeMs[i] = c.timeMs[Math.max(at, i - extra)]! + (i < at + extra ? (i - at) * 100 : extra * 100);
      if (i < at + extra) out.speed[i] = 0;
    }
    out.count = n;
    return out;
  }

  for (const seconds of [30, 90]) {
    it(`${seconds} s standing after 10 s of riding: every lap keeps the device's name and time`, () => {
      const c = withStand(recorded, 100, seconds);
      const list = listLaps(analyzeTrack(c, definition).laps, c, device, false);
      const timed = list.filter((l) => l.deviceSeconds !== null).map((l) => `${l.heat}${l.number} ${l.seconds}`);
      expect(timed).toEqual(device.map((l) => `${l.heat}${l.lapCount} ${l.lapSeconds}`));
      // The piece before the stop is a piece of that out-lap: by its name, with no time of its own.
      expect(list[0]).toMatchObject({ heat: 'A', number: 0, seconds: null });
      // The piece after it is not the whole out-lap: its GPS duration is no check of the device's time.
      const asRecorded = listLaps(analyzeTrack(recorded, definition).laps, recorded, device, false);
      const differing = (laps: typeof list) => laps.filter((l) => l.differs).map((l) => `${l.heat}${l.number}`);
      expect(differing(list)).toEqual(differing(asRecorded));
    });
  }
});

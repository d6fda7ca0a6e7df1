import { describe, expect, it } from 'vitest';
import { WEAK_FIX_SATELLITES } from '../analysis/gps-analysis';
import { allocGpsColumns, GPS_COLUMN_KEYS, type GpsColumns } from '../formats/gps-columns';
import { parseGpsSix } from '../formats/gps-six';
import { asWritten } from '../formats/gps-six-write';
import { readImport } from './test-support/read-import';
import * as W from './test-support/writers';
import { mergeTraces, ridingFixes, sameRecording, sessionFiles } from './day-files';
import { gpsSixText, lapNumbering, sessionColumns, sessionLapColumns, sessionTrace } from './to-session';
import { TraceBuilder, type ImportedTrace } from './trace';
import { haversineM } from '../geo';
import { buildRacingLine, generateSession } from '../sim/session-generator';
import { gateAcross } from '../tracks/gate';
import { timeLaps, type TimedLap } from '../tracks/lap-timing';
import { loadTracks } from '../test-support/track-files';

// An import's session columns are made a batch at a time from its trace (a long file is never held
// twice whole). The plain form below, every column whole at once, is their oracle.

const DAY_MS = 86_400_000;
const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;

/** The session's columns whole: the trace's values as written, then each lap's heat, number and meters. */
function plainColumns(t: ImportedTrace, laps: readonly TimedLap[]): GpsColumns {
  const c = allocGpsColumns(t.count);
  const at = (i: number) => Math.min(t.count - 1, Math.max(0, i));
  for (let i = 0; i < t.count; i++) {
    let speed = t.speedKmh[i]!;
    if (Number.isNaN(speed)) {
      const [a, b] = [at(i - 1), at(i + 1)];
      const dt = (t.timeMs[b]! - t.timeMs[a]!) / 1000;
      speed = dt > 0 ? (haversineM(t.lat[a]!, t.lon[a]!, t.lat[b]!, t.lon[b]!) / dt) * 3.6 : 0;
    }
    const lean = Number.isNaN(t.leanDeg[i]!) ? 0 : t.leanDeg[i]!;
    c.line[i] = i + 1;
    c.lat[i] = asWritten(t.lat[i]!, 7);
    c.lon[i] = asWritten(t.lon[i]!, 7);
    c.speed[i] = asWritten(Math.min(1000, speed), 1);
    c.satellites[i] = t.satellites[i]! < 0 ? WEAK_FIX_SATELLITES : t.satellites[i]!;
    c.timeMs[i] = ((Math.round(t.timeMs[i]!) % DAY_MS) + DAY_MS) % DAY_MS;
    c.roll[i] = asWritten(lean, 1);
    c.leanFiltered[i] = asWritten(lean, 1);
  }
  c.count = t.count;
  const numbers = lapNumbering(laps);
  // Each piece from where the one before it ended (the samples between two belong to the later),
  // but a run's own samples stay its heat's: after its last piece, up to the pause of over a minute
  // that ends it, and after the last piece, the next lap of its heat.
  const pauses: number[] = [];
  for (let i = 1; i < t.count; i++) if (t.timeMs[i]! - t.timeMs[i - 1]! > 60_000) pauses.push(i);
  let end = 0;
  let n = { heat: 0, lapCount: -1, first: 0 };
  let run = 0;
  for (const lap of laps) {
    if (run && lap.run !== run) {
      const to = pauses[run - 1]!;
      c.heat.fill(n.heat, end, to);
      c.lapCount.fill(n.lapCount + 1, end, to);
      c.firstLap.fill(0, end, to);
      end = Math.max(end, to);
    }
    run = lap.run;
    n = numbers.get(lap.number)!;
    const to = Math.min(c.count - 1, lap.end.index) + 1;
    c.heat.fill(n.heat, end, to);
    c.lapCount.fill(n.lapCount, end, to);
    c.firstLap.fill(n.first, end, to);
    end = to;
  }
  c.heat.fill(n.heat, end);
  c.lapCount.fill(n.lapCount + 1, end);
  c.firstLap.fill(0, end);
  let meters = 0;
  for (let i = 0; i < c.count; i++) {
    if (i === 0 || c.lapCount[i] !== c.lapCount[i - 1] || c.heat[i] !== c.heat[i - 1]) meters = 0;
    else meters += haversineM(c.lat[i - 1]!, c.lon[i - 1]!, c.lat[i]!, c.lon[i]!);
    c.meterSum[i] = Math.min(2_000_000_000, Math.round(meters));
  }
  return c;
}

/** A generated session as a logger's file would give it: some speeds, satellites and leans missing. */
function importedTrace(): ImportedTrace {
  const gen = generateSession(interlagos, { seed: 3, hz: 10, heats: 2, lapsPerHeat: [3, 4], gpsNoise: 0.3 });
  const c = parseGpsSix(gen.gpsSix).value;
  const out = new TraceBuilder();
  // Moved so that midnight UTC falls mid-session: times of day roll over.
  // A file has no heats: the second one starts after a pause of two minutes, a run of its own.
  const shift = Date.UTC(2026, 10, 16) - c.timeMs[c.count >> 1]!;
  for (let i = 0; i < c.count; i++) {
    out.addFix(
      shift + c.timeMs[i]! + (c.heat[i]! > 0 ? 120_000 : 0),
      c.lat[i]!,
      c.lon[i]!,
      i % 3 ? c.speed[i]! : NaN,
      i % 5 ? c.satellites[i]! : NaN,
      i % 7 ? c.roll[i]! : NaN,
    );
  }
  return out.trace();
}

function gate() {
  const line = buildRacingLine(interlagos);
  const [lat, lon] = line.proj.toLatLon(line.x[0]!, line.y[0]!);
  return gateAcross({ lat, lon }, line.x[1]! - line.x[0]!, line.y[1]! - line.y[0]!);
}

describe('an import’s session columns, a batch at a time', () => {
  const raw = importedTrace();
  const copy = (t: ImportedTrace): ImportedTrace => ({
    ...t,
    timeMs: t.timeMs.slice(),
    lat: t.lat.slice(),
    lon: t.lon.slice(),
    speedKmh: t.speedKmh.slice(),
    satellites: t.satellites.slice(),
    leanDeg: t.leanDeg.slice(),
  });
  const trace = sessionTrace(copy(raw));
  const laps = timeLaps(trace, gate());

  it('times laps on the session trace (the test has laps, heats and a midnight to cross)', () => {
    expect(laps.filter((l) => l.complete).length).toBeGreaterThan(5);
    expect(new Set(laps.map((l) => l.run)).size).toBe(2);
  });

  for (const size of [1, 999, 16_384, 1_000_000]) {
    it(`in batches of ${size}: every column as the plain whole form makes it`, () => {
      const whole = plainColumns(raw, laps);
      let from = 0;
      for (const c of sessionColumns(trace, laps, lapNumbering(laps), size)) {
        for (const k of GPS_COLUMN_KEYS)
          expect(Array.from(c[k].subarray(0, c.count)), k).toEqual(Array.from(whole[k].subarray(from, from + c.count)));
        from += c.count;
      }
      expect(from).toBe(raw.count);
    });
  }

  it('its gps.six text is what the device parser reads back as those columns', () => {
    const back = parseGpsSix(gpsSixText(sessionColumns(trace, laps, lapNumbering(laps), 500)));
    expect(back.problems).toEqual([]);
    const whole = plainColumns(raw, laps);
    for (const k of GPS_COLUMN_KEYS)
      expect(Array.from(back.value[k].subarray(0, back.value.count)), k).toEqual(
        Array.from(whole[k].subarray(0, whole.count)),
      );
  });

  it('making the session trace again changes nothing; an empty trace has no batch', () => {
    const once = copy(raw);
    sessionTrace(once); // in place
    const twice = copy(once);
    sessionTrace(twice);
    for (const k of ['timeMs', 'lat', 'lon', 'speedKmh', 'satellites', 'leanDeg'] as const)
      expect(Array.from(twice[k]), k).toEqual(Array.from(once[k]));
    expect(Array.from(once.speedKmh)).toEqual(Array.from(trace.speed));
    expect([...sessionColumns(sessionTrace(new TraceBuilder().trace()), [], new Map())]).toEqual([]);
  });
});

describe('a day of six runs (six files of one track day)', () => {
  const lap = (number: number, run: number, kind: TimedLap['kind']): TimedLap => ({
    number,
    run,
    kind,
    start: { index: number * 10, fraction: 0.5, ms: number * 1000 },
    end: { index: number * 10 + 9, fraction: 0.5, ms: number * 1000 + 900 },
    seconds: 0.9,
    complete: true,
  });
  const laps = [1, 2, 3, 4, 5, 6].flatMap((run) => [
    lap(run * 3 - 2, run, 'out'),
    lap(run * 3 - 1, run, 'flying'),
    lap(run * 3, run, 'in'),
  ]);
  const keys = [...lapNumbering(laps).values()].map((n) => `${'ABCD'[n.heat]}${n.lapCount}`);

  it('heats A to D; the fifth and sixth runs go on counting in D, no lap named twice', () => {
    expect(keys).toEqual(
      ['A0', 'A1', 'A2', 'B0', 'B1', 'B2', 'C0', 'C1', 'C2'].concat([
        'D0',
        'D1',
        'D2',
        'D3',
        'D4',
        'D5',
        'D6',
        'D7',
        'D8',
      ]),
    );
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('a roll in the paddock before going out (TrackAddict at Goodwood: 8 s, then a stand of minutes)', () => {
  const lap = (number: number, run: number, kind: TimedLap['kind'], fromS: number, toS: number, complete = true) => ({
    number,
    run,
    kind,
    start: { index: fromS * 10, fraction: 0, ms: fromS * 1000 },
    end: { index: toS * 10, fraction: 0, ms: toS * 1000 },
    seconds: toS - fromS,
    complete,
  });
  const names = (laps: TimedLap[]) =>
    [...lapNumbering(laps).entries()].map(([k, n]) => `${k}:${'ABCD'[n.heat]}${n.lapCount}`);

  it('is no heat: its piece is lap 0 of the heat that follows, as the out-lap is', () => {
    const laps = [
      lap(1, 1, 'out', 0, 8, false),
      lap(2, 2, 'out', 130, 141, false),
      lap(3, 2, 'flying', 141, 318),
      lap(4, 2, 'in', 318, 490, false),
    ];
    expect(names(laps)).toEqual(['1:A0', '2:A0', '3:A1', '4:A2']);
  });

  it('after the day’s last heat, its piece counts on in that heat; a run that rode 20 s or more is a heat', () => {
    const after = [lap(1, 1, 'out', 0, 20, false), lap(2, 1, 'flying', 20, 120), lap(3, 2, 'out', 900, 910, false)];
    expect(names(after)).toEqual(['1:A0', '2:A1', '3:A2']);
    const rode = [lap(1, 1, 'partial', 0, 25, false), lap(2, 2, 'out', 200, 210, false), lap(3, 2, 'flying', 210, 310)];
    expect(names(rode)).toEqual(['1:A0', '2:B0', '3:B1']);
  });

  it('in the gps.six, the roll, the stand and the out-lap are one lap 0: no stretch named twice', () => {
    // 10 Hz: riding, a stand from 8 s to 130 s, riding to 490 s.
    const n = 4_901;
    const t = {
      count: n,
      lat: new Float64Array(n),
      lon: new Float64Array(n),
      timeMs: Float64Array.from({ length: n }, (_, i) => i * 100),
      speed: Float64Array.from({ length: n }, (_, i) => (i > 80 && i < 1_300 ? 0 : 50)),
      satellites: new Uint16Array(n).fill(12),
    };
    const laps = [
      lap(1, 1, 'out', 0, 8, false),
      lap(2, 2, 'out', 130, 141, false),
      lap(3, 2, 'flying', 141, 318),
      lap(4, 2, 'in', 318, 490, false),
    ];
    const c = sessionLapColumns(t, laps, lapNumbering(laps));
    const stretches: string[] = [];
    for (let i = 0; i < c.count; i++) {
      const name = `${'ABCD'[c.heat[i]!]}${c.lapCount[i]}`;
      if (stretches.at(-1) !== name) stretches.push(name);
    }
    expect(stretches).toEqual(['A0', 'A1', 'A2']);
  });
});

describe('a run that ends a second after its line (a lap exported alone)', () => {
  // The first run of the test session cut 1 s after its last crossing: less than a piece, no in-lap.
  const raw = importedTrace();
  const whole = timeLaps(sessionTrace(importedTrace()), gate());
  const lastLine = whole.filter((l) => l.run === 1 && l.complete).at(-1)!.end.index;
  let pause = 1;
  while (raw.timeMs[pause]! - raw.timeMs[pause - 1]! <= 60_000) pause++;
  const cut = new TraceBuilder();
  for (let i = 0; i < raw.count; i++)
    if (i <= lastLine + 10 || i >= pause)
      cut.addFix(raw.timeMs[i]!, raw.lat[i]!, raw.lon[i]!, raw.speedKmh[i]!, raw.satellites[i]!, raw.leanDeg[i]!);
  const trace = sessionTrace(cut.trace());
  const laps = timeLaps(trace, gate());
  const columns = sessionLapColumns(trace, laps, lapNumbering(laps));

  it('keeps its last lap: timed again from the columns’ heats, the laps are the same', () => {
    const last = laps.filter((l) => l.run === 1).at(-1)!;
    expect(last.kind).toBe('flying');
    expect(last.end.index).toBe(lastLine);
    expect(timeLaps({ ...trace, heat: columns.heat }, gate())).toEqual(laps);
  });

  it('the sample after the line is the next lap of the first heat, as a device counts it', () => {
    const n = lapNumbering(laps).get(laps.filter((l) => l.run === 1).at(-1)!.number)!;
    expect(columns.heat[lastLine + 1]).toBe(0);
    expect(columns.lapCount[lastLine + 1]).toBe(n.lapCount + 1);
    expect(columns.heat[lastLine + 11]).toBe(1);
  });
});

describe('the same ride imported twice (issue 35)', () => {
  const day = { y: 2026, m: 11, d: 20 };
  const ride = parseGpsSix(
    generateSession(interlagos, { seed: 5, hz: 10, heats: 1, lapsPerHeat: [3, 3], gpsNoise: 0.3 }).gpsSix,
  ).value;
  const afternoon = parseGpsSix(
    generateSession(interlagos, {
      seed: 6,
      hz: 10,
      heats: 1,
      lapsPerHeat: [3, 3],
      gpsNoise: 0.3,
      startTimeMs: 17 * 3_600_000,
    }).gpsSix,
  ).value;
  const read = async (text: string, name: string) => {
    const r = await readImport([new TextEncoder().encode(text)], name);
    if (r.kind !== 'trace') throw new Error('expected a trace');
    return r.file;
  };
  /** A rider going north at 30 m/s from `fromS` to `toS` seconds after 10:00 UTC, `hz` fixes a second, `eastM` to the side. */
  const straight = (fromS: number, toS: number, hz = 1, eastM = 0): ImportedTrace => {
    const out = new TraceBuilder();
    const t0 = Date.UTC(2026, 10, 20, 10);
    for (let k = Math.ceil(fromS * hz); k <= toS * hz; k++)
      out.add({
        timeMs: t0 + (k / hz) * 1000,
        lat: -23.7 + (30 * (k / hz)) / 111_195,
        lon: -46.69 + eastM / 101_900,
        speedKmh: 108,
      });
    return out.trace();
  };

  it('a GPX and the RaceChrono CSV of one ride are one recording, whichever came first', async () => {
    const [gpx, rc] = [await read(W.writeGpx(ride, day), 'a.gpx'), await read(W.writeRaceChrono(ride, day), 'b.csv')];
    expect(sameRecording(rc.trace, gpx.trace)).toBe(true);
    expect(sameRecording(gpx.trace, rc.trace)).toBe(true);
    // The one with the logger's own laps (RaceChrono's lap numbers) makes the session; the GPX repeats it.
    expect(rc.loggerLaps.length).toBeGreaterThan(0);
    expect(sessionFiles([gpx, rc])).toEqual({ order: [1, 0], repeats: [1, undefined] });
    // Merged, the RaceChrono's fixes alone: none twice, none of the GPX's between them.
    const merged = mergeTraces([rc.trace, gpx.trace]);
    expect(Array.from(merged.timeMs)).toEqual(Array.from(rc.trace.timeMs));
  });

  it('between files alike, the first imported stays; a richer one (over 10 % more fixes while riding) or one with the logger’s laps wins', () => {
    const none: never[] = [];
    const [phone, logger] = [straight(0, 600), straight(0, 600, 25)];
    expect(
      sessionFiles([
        { trace: phone, loggerLaps: none },
        { trace: straight(0, 600), loggerLaps: none },
      ]).order,
    ).toEqual([0, 1]);
    expect(
      sessionFiles([
        { trace: phone, loggerLaps: none },
        { trace: logger, loggerLaps: none },
      ]),
    ).toEqual({ order: [1, 0], repeats: [1, undefined] });
    // Rows written while standing still are no richer.
    const standing = new TraceBuilder();
    for (let k = 0; k <= 600; k++) standing.add({ timeMs: phone.timeMs[k]!, lat: phone.lat[k]!, lon: phone.lon[k]! });
    for (let k = 1; k <= 6000; k++)
      standing.add({ timeMs: phone.timeMs[600]! + k * 100, lat: phone.lat[600]!, lon: phone.lon[600]! });
    expect(ridingFixes(standing.trace())).toBe(ridingFixes(phone));
    expect(
      sessionFiles([
        { trace: phone, loggerLaps: none },
        { trace: standing.trace(), loggerLaps: none },
      ]).order,
    ).toEqual([0, 1]);
    expect(
      sessionFiles([
        { trace: logger, loggerLaps: none },
        { trace: phone, loggerLaps: [{ seconds: 90 }] },
      ]).order,
    ).toEqual([1, 0]);
  });

  it('morning and afternoon are two recordings, both kept whole, in time order', async () => {
    const [morning, later] = [
      await read(W.writeGpx(ride, day), 'manha.gpx'),
      await read(W.writeVbo(afternoon, day), 'tarde.vbo'),
    ];
    expect(sameRecording(later.trace, morning.trace)).toBe(false);
    expect(sessionFiles([morning, later]).repeats).toEqual([undefined, undefined]);
    const merged = mergeTraces([later.trace, morning.trace]);
    expect(merged.count).toBe(morning.trace.count + later.trace.count);
    expect(merged.timeMs[morning.trace.count - 1]).toBe(morning.trace.timeMs[morning.trace.count - 1]);
  });

  it('more than half of the newer file’s time within the older’s, at the same place: the rule’s edges', () => {
    const older = straight(0, 1000);
    expect(sameRecording(straight(500, 1400), older)).toBe(true); // 500 s of 900 inside
    expect(sameRecording(straight(600, 1400), older)).toBe(false); // 400 s of 800: not more than half
    expect(sameRecording(straight(200, 400, 10, 8), older)).toBe(true); // another logger a few metres over, at 10 Hz
    expect(sameRecording(straight(200, 400, 1, 400), older)).toBe(false); // the same times 400 m away: another ride
    // A day's long file after a short one: the newer's time is mostly outside, two recordings.
    expect(sameRecording(straight(-2000, 1500), older)).toBe(false);
    expect(sameRecording(older, straight(-2000, 1500))).toBe(true);
  });

  it('where files overlap, the first listed keeps its fixes; the other adds only those outside its time or in its pauses', () => {
    const first = straight(100, 200);
    const other = straight(0, 300, 2, 3);
    const merged = mergeTraces([first, other]);
    const times = Array.from(merged.timeMs, (t) => (t - merged.timeMs[0]!) / 1000);
    expect(times.filter((t) => t >= 100 && t <= 200)).toEqual(Array.from({ length: 101 }, (_, k) => 100 + k)); // first's 1 Hz only
    expect(times.filter((t) => t < 100).length).toBe(200); // other's 2 Hz before
    expect(times.filter((t) => t > 200).length).toBe(200); // and after
    for (let k = 1; k < times.length; k++) expect(times[k]!).toBeGreaterThan(times[k - 1]!);
  });
});

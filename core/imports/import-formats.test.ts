import { describe, expect, it } from 'vitest';
import { ImportReader } from './importer';
import { readImport } from './test-support/read-import';
import { sessionTrace } from './to-session';
import { TraceBuilder } from './trace';
import * as W from './test-support/writers';
import { trackAddictFileName, writeTrackAddict } from './test-support/trackaddict-writer';
import { parseGpsSix } from '../formats/gps-six';
import { buildRacingLine, generateSession, type TrackGeometry } from '../sim/session-generator';
import { gateAcross, type Gate } from '../tracks/gate';
import { timeLaps } from '../tracks/lap-timing';
import { loadTracks } from '../test-support/track-files';

// Every format written from a generated session (the truth known), read back, and timed: the
// flying laps within 0.02 s of the generator's, whatever the format did to the numbers.

const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;
const day = { y: 2026, m: 11, d: 15 };

function trueGate(track: TrackGeometry): Gate {
  const line = buildRacingLine(track);
  const [lat, lon] = line.proj.toLatLon(line.x[0]!, line.y[0]!);
  return gateAcross({ lat, lon }, line.x[1]! - line.x[0]!, line.y[1]! - line.y[0]!);
}

function session(hz: number, seed = 7) {
  const gen = generateSession(interlagos, { seed, hz, heats: 2, lapsPerHeat: [3, 4], gpsNoise: 0.3 });
  return { gen, c: parseGpsSix(gen.gpsSix).value };
}

const enc = (s: string) => [new TextEncoder().encode(s)];

async function timed(text: string | Uint8Array[], name: string) {
  const read = await readImport(typeof text === 'string' ? enc(text) : text, name);
  if (read.kind !== 'trace') throw new Error('expected a trace');
  return { file: read.file, laps: timeLaps(sessionTrace(read.file.trace), trueGate(interlagos)) };
}

function worstFlying(laps: { kind: string; complete: boolean; seconds: number }[], truth: number[]) {
  const flying = laps.filter((l) => l.kind === 'flying' && l.complete);
  expect(flying.length).toBeGreaterThan(3);
  let worst = 0;
  for (const l of flying)
    worst =
      Math.min(...truth.map((t) => Math.abs(t - l.seconds))) > worst
        ? Math.min(...truth.map((t) => Math.abs(t - l.seconds)))
        : worst;
  return worst;
}

describe('import formats, generated from the simulator', () => {
  const { gen, c } = session(10);
  const truth = gen.laps.map((l) => l.lapSeconds);
  const cases: [string, string, () => string][] = [
    ['GPX 1.1 (Garmin speed extension)', 'sessao.gpx', () => W.writeGpx(c, day)],
    ['GPX 1.0 (<speed>)', 'sessao.gpx', () => W.writeGpx(c, day, { version: '1.0' })],
    ['RaceChrono CSV v3', 'session.csv', () => W.writeRaceChrono(c, day)],
    ['VBO', 'session.vbo', () => W.writeVbo(c, day)],
    ['AiM CSV', 'aim.csv', () => W.writeAim(c, day, gen.laps, 10)],
    ['NMEA 0183', 'gps.nmea', () => W.writeNmea(c, day)],
    ['SpeedAngle .sa', 'INTERLAGOS 111526.sa', () => W.writeSpeedAngle(c, day, gen.laps, trueGate(interlagos))],
    [
      'TrackAddict CSV (4.x: UTC Time, km/h)',
      'Log-20261115-100000 Interlagos.csv',
      () => writeTrackAddict(c, day, gen.laps),
    ],
    [
      'TrackAddict CSV (3.x: no UTC Time, the start in its name; MPH, CRLF, a BOM)',
      trackAddictFileName(c, day),
      () => writeTrackAddict(c, day, gen.laps, { utc: false, speed: 'MPH', crlf: true, bom: true }),
    ],
    ['gps.six', 'Interlagos/15112026/gps.six', () => gen.gpsSix],
  ];
  for (const [name, file, write] of cases) {
    it(`${name}: fixes, day and laps within 0.02 s of the truth`, async () => {
      const { file: f, laps } = await timed(write(), file);
      expect(f.trace.count).toBeGreaterThan(c.count * 0.99);
      const first = new Date(f.trace.timeMs[0]!);
      expect([first.getUTCFullYear(), first.getUTCMonth() + 1, first.getUTCDate()]).toEqual([2026, 11, 15]);
      expect(worstFlying(laps, truth)).toBeLessThan(0.02);
    });
  }

  it('the logger laps of AiM and SpeedAngle files are the logger’s own times', async () => {
    const aim = await timed(W.writeAim(c, day, gen.laps, 10), 'a.csv');
    expect(aim.file.loggerLaps.length).toBe(truth.length);
    aim.file.loggerLaps.forEach((l, k) => expect(l.seconds).toBeCloseTo(truth[k]!, 3));
    const sa = await timed(W.writeSpeedAngle(c, day, gen.laps, trueGate(interlagos)), 'x.sa');
    expect(sa.file.loggerLaps.length).toBe(truth.length - 1);
    expect(sa.file.fileGate).toBeDefined();
  });

  it('SpeedAngle with a sector line and the start/finish (issue 35): the logger laps are the start/finish’s, not the sector line’s', async () => {
    const g1 = generateSession(interlagos, { seed: 21, hz: 10, heats: 1, lapsPerHeat: [4, 4], gpsNoise: 0.3 });
    const cols = parseGpsSix(g1.gpsSix).value;
    const line = buildRacingLine(interlagos);
    const half = Math.floor(line.n / 2);
    const [lat, lon] = line.proj.toLatLon(line.x[half]!, line.y[half]!);
    const sector = gateAcross({ lat, lon }, line.x[half + 1]! - line.x[half]!, line.y[half + 1]! - line.y[half]!);
    const text = W.writeSpeedAngle(cols, day, g1.laps, trueGate(interlagos), { sectorGate: sector });
    // As the logger writes it: a two-line plan, the sector line's crossings (#1) between the start/finish's (#2, F rows).
    expect(text).toContain('<trackplan #sectors=2>');
    const timer = text.slice(text.indexOf('<timer'), text.indexOf('</timer>'));
    expect(timer.match(/^#1,/gm)?.length).toBe(6);
    expect(timer.match(/^#2,/gm)?.length).toBe(6);
    expect(text.match(/,F$/gm)?.length).toBe(6);
    // Out-lap, four flying laps and the in-lap end at the line: five laps between six crossings, to the ms.
    const expected = g1.laps.slice(1).map((l) => l.lapSeconds);
    const sa = await timed(text, 'INTERLAGOS 111526.sa');
    expect(sa.file.loggerLaps.map((l) => l.seconds)).toEqual(expected);
    // The file's own start/finish line is line 2, as written.
    const finish = trueGate(interlagos);
    expect(sa.file.fileGate!.a.lat).toBeCloseTo(finish.a.lat, 6);
    expect(sa.file.fileGate!.b.lon).toBeCloseTo(finish.b.lon, 6);
    // Each ends where Voltas's GPS lap of the same time ends.
    for (const l of sa.file.loggerLaps.slice(0, 4)) {
      const voltas = sa.laps.find((v) => Math.abs(v.seconds - l.seconds) < 0.05)!;
      expect(Math.abs(sa.file.trace.timeMs[0]! + voltas.end.ms - l.endMs!)).toBeLessThanOrEqual(200);
    }
    // A timer without the start/finish's crossings: the F rows alone, timed at their 10 Hz rows.
    const rowsOnly = await timed(text.replace(/^#2,.*\n.*\n/gm, ''), 'x.sa');
    expect(rowsOnly.file.loggerLaps.length).toBe(5);
    rowsOnly.file.loggerLaps.forEach((l, k) => expect(Math.abs(l.seconds - expected[k]!)).toBeLessThanOrEqual(0.1));
  });

  it('TrackAddict: the logger laps are where its Lap column changes, timed by its own # Lap lines', async () => {
    // Lap 0 runs from the start of the recording, and the last lap never ends: the laps between.
    const expected = truth.slice(1, -1);
    for (const options of [{}, { utc: false, speed: 'MPH' as const }]) {
      const ta = await timed(writeTrackAddict(c, day, gen.laps, options), trackAddictFileName(c, day));
      expect(ta.file.format).toBe('trackaddict');
      expect(ta.file.loggerLaps.map((l) => l.seconds)).toEqual(expected);
      // Each ends at the first fix of the next lap: where Voltas's own lap ends, within a fix.
      for (const l of ta.file.loggerLaps.slice(0, 3)) {
        const voltas = ta.laps.find((v) => Math.abs(v.seconds - l.seconds) < 0.05)!;
        expect(Math.abs(ta.file.trace.timeMs[0]! + voltas.end.ms - l.endMs!)).toBeLessThanOrEqual(100);
      }
    }
  });
});

describe('TrackAddict’s speed of 0 where the phone’s GPS gave none', () => {
  // The Spreewaldring file (issue 59): 0.0 km/h for 7 s while its fixes move 15-20 m a second;
  // read as a stand, it ended the lap it was in. A fix that moved has its speed from the positions.
  it('is unknown where the fix moved (computed from the positions), a stand where it did not', async () => {
    const rows = [
      [0, 52.0, 60.2],
      [1, 52.00015, 0.0], // moved ~17 m: 0 is no reading
      [2, 52.0003, 0.0],
      [3, 52.0003, 0.0], // stood: 0 is right
    ].map(([t, lat, v]) => `${t},${1559734111 + t!},1,${lat},13.687,${v}`);
    const text = [
      '# RaceRender Data: TrackAddict 4.3.5 on Android 9',
      '"Time","UTC Time","GPS_Update","Latitude","Longitude","Speed (Km/h)"',
      ...rows,
    ].join('\n');
    const read = await readImport(enc(text), 'x.csv');
    if (read.kind !== 'trace') throw new Error('expected a trace');
    expect(read.file.format).toBe('trackaddict');
    const t = sessionTrace(read.file.trace);
    expect(t.count).toBe(4);
    expect(t.speed[1]).toBeGreaterThan(50);
    expect(t.speed[t.count - 1]).toBe(0);
  });
});

/** A column's bytes, compared whole (toEqual goes value by value: slow on columns of 100k fixes). */
const bytesOf = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

// Twelve reads of files of several MB: seconds, and two or three times as long on a busy machine.
describe('the fix columns sized from the body length', { timeout: 60_000 }, () => {
  it('read the same fixes whatever the length said (right, far too small, far too large), in pieces as from a socket', () => {
    const { c } = session(25);
    for (const [name, text] of [
      ['s.vbo', W.writeVbo(c, day)],
      ['s.gpx', W.writeGpx(c, day)],
      ['s.csv', W.writeRaceChrono(c, day)],
    ] as const) {
      const bytes = new TextEncoder().encode(text);
      expect(bytes.length).toBeGreaterThan(2 << 20); // past the first megabyte, where the size is guessed
      const readWith = (expected?: number) => {
        const r = new ImportReader(name, expected);
        for (let at = 0; at < bytes.length; at += 65_536) r.push(bytes.subarray(at, at + 65_536));
        const read = r.finish();
        if (read.kind !== 'trace') throw new Error('expected a trace');
        return read.file.trace;
      };
      const plain = readWith();
      for (const expected of [bytes.length, 1_100_000, bytes.length * 50]) {
        const sized = readWith(expected);
        expect(sized.count).toBe(plain.count);
        for (const k of ['timeMs', 'lat', 'lon', 'speedKmh', 'satellites', 'leanDeg'] as const)
          expect(bytesOf(sized[k]).equals(bytesOf(plain[k])), k).toBe(true);
        // Sized once from the right length: little room left over (growing by half leaves up to a third).
        if (expected === bytes.length)
          expect(sized.lat.buffer.byteLength / 8, name).toBeLessThan(plain.count * 1.06 + 1100);
      }
    }
  });
});

describe('a file past the fixes a file may hold', () => {
  it('keeps the first ones and says how many were left out', () => {
    const out = new TraceBuilder(10);
    for (let i = 0; i < 13; i++) out.addFix(Date.UTC(2026, 0, 1) + i * 100, -23.7 + i * 1e-5, -46.7, 80, 12, 0);
    expect(out.trace().count).toBe(10);
    expect(out.warnings()).toEqual([{ code: 'beyondLimit', count: 3 }]);
  });
});

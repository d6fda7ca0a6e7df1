import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportAnswer } from '#core/contracts/imports.contract.ts';
import type { TrackAnalysisResponse } from '#core/contracts/tracks.contract.ts';
import { parseGpsSix } from '#core/formats/gps-six.ts';
import { epochTimes } from '#core/imports/test-support/writers.ts';
import { writeTrackAddictRide } from '#core/imports/test-support/trackaddict-writer.ts';
import { buildRacingLine, generateSession } from '#core/sim/session-generator.ts';
import { gateAcross } from '#core/tracks/gate.ts';
import { timeLaps } from '#core/tracks/lap-timing.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { Browser, startTestServer, type TestServer } from '#test/test-server.ts';

// Issue 59: an import whose file has laps shows the logger's own laps (DESIGN.md, "Laps: one list
// per session"). A TrackAddict phone (1 Hz GPS) timed its laps at its own line, a third of the way
// round Interlagos, which its file names (`# End Point`); Voltas timed the GPS at the track's line,
// so no lap of the logger's ended where one of Voltas's did, and the rider saw Voltas's laps with
// GPS times instead of the ones the phone showed. The session is now timed at the logger's line.

const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;
const day = { y: 2026, m: 10, d: 4 };
// The ride's exact path (no GPS error): one heat, an out-lap, six flying laps, an in-lap.
const ride = parseGpsSix(
  generateSession(interlagos, { seed: 591, heats: 1, lapsPerHeat: [6, 6], gpsNoise: 0 }).gpsSix,
).value;
const times = epochTimes(ride, day);
const line = buildRacingLine(interlagos);
const k = Math.round(line.n * 0.37);
const [lat, lon] = line.proj.toLatLon(line.x[k]!, line.y[k]!);
const loggerGate = gateAcross({ lat, lon }, line.x[k + 1]! - line.x[k]!, line.y[k + 1]! - line.y[k]!);
// The phone started recording 40 s into the out-lap and stopped 30 s into the in-lap.
const recording = { fromMs: times[0]! + 40_000, toMs: times[times.length - 1]! - 30_000 };
const file = writeTrackAddictRide(ride, day, loggerGate, { ...recording, noiseM: 1.5, seed: 59 });

/** What happened on track, at the logger's line: the exact path's laps while the phone recorded. */
function truthAtLoggerLine() {
  const from = times.findIndex((t) => t >= recording.fromMs);
  const to = times.findIndex((t) => t > recording.toMs);
  const slice = <T extends Float64Array | Int16Array | Uint16Array | Int32Array | Uint8Array>(a: T) =>
    a.subarray(from, to) as T;
  const trace = {
    count: to - from,
    lat: slice(ride.lat),
    lon: slice(ride.lon),
    speed: slice(ride.speed),
    satellites: slice(ride.satellites),
    timeMs: Float64Array.from(times.slice(from, to)),
  };
  return timeLaps(trace, loggerGate).filter((l) => l.complete);
}

let server: TestServer;
let rider: Browser;
let answer: ImportAnswer;

beforeAll(async () => {
  server = await startTestServer({}, { inject: true });
  rider = new Browser(server);
  await rider.signIn('piloto-trackaddict@example.com');
  const res = await rider.request(`/api/imports?filename=${encodeURIComponent('Log-20261004-101000.csv')}`, {
    method: 'POST',
    body: file.text,
    headers: { 'content-type': 'application/octet-stream' },
  });
  answer = (await res.json()) as ImportAnswer;
  expect(res.status, JSON.stringify(answer).slice(0, 300)).toBe(201);
});
afterAll(async () => {
  await server.close();
});

describe('a TrackAddict recording (1 Hz, cut mid-lap at both ends) timed at its own line', () => {
  const at = () => `/api/devices/${answer.session.device}/sessions/Interlagos/${answer.session.date}`;

  it('reads the logger’s laps from its Lap column and its # Lap lines', () => {
    expect(answer.format).toBe('trackaddict');
    expect(answer.session.track).toBe('Interlagos');
    expect(answer.loggerLaps).toEqual(file.laps);
    expect(file.laps).toHaveLength(7); // the out-lap's end, six flying laps, the in-lap's start: line to line
  });

  it('lists the logger’s laps with its times, their kinds from what happened on track, the GPS time at its line beside', () => {
    const truth = truthAtLoggerLine();
    // The same laps (the writer times the crossings as lap timing does, to a millisecond's rounding).
    expect(truth).toHaveLength(file.laps.length);
    truth.forEach((l, n) => expect(Math.abs(l.seconds - file.laps[n]!)).toBeLessThanOrEqual(0.002));
    const listed = answer.laps;
    expect(listed.map((l) => l.loggerSeconds)).toEqual(file.laps);
    expect(listed.map((l) => l.seconds)).toEqual(file.laps);
    expect(listed.map((l) => l.kind)).toEqual(truth.map((l) => l.kind));
    // A fix a second with a phone's error: the GPS times the same laps at the same line within a few tenths.
    for (const l of listed) expect(Math.abs(l.gpsSeconds - l.loggerSeconds!)).toBeLessThan(0.5);
    const flying = listed.filter((l) => l.kind === 'flying');
    expect(flying.length).toBeGreaterThanOrEqual(5);
    expect(answer.bestLapSeconds).toBe(Math.min(...flying.map((l) => l.seconds)));
    expect(answer.warnings.map((w) => w.code)).not.toContain('loggerLapsUnmatched');
  });

  it('the laps screen and the track analysis show the same laps, the logger’s, and say where the GPS disagrees', async () => {
    const screen = (await (await rider.request(`${at()}/laps`)).json()) as {
      laps: { heat: string; lapCount: number; lapSeconds: number }[];
      bestLapMs: number;
    };
    for (const seconds of file.laps) expect(screen.laps.map((l) => l.lapSeconds)).toContain(seconds);
    expect(screen.bestLapMs).toBe(Math.round(answer.bestLapSeconds! * 1000));
    const analysis = (await (await rider.request(`${at()}/track-analysis`)).json()) as TrackAnalysisResponse;
    const complete = analysis.laps.filter((l) => l.complete);
    expect(complete.map((l) => l.seconds)).toEqual(file.laps);
    for (const l of complete) {
      expect(l.timeSource).toBe('logger');
      expect(l.differs).toBe(Math.abs(l.seconds! - l.gpsSeconds) > 0.05);
    }
    expect(analysis.laps.find((l) => l.index === analysis.bestLap)?.seconds).toBe(answer.bestLapSeconds);
  });
});

describe('the same recording without its # End Point: the logger’s line is unknown', () => {
  it('the GPS’s laps at the track’s line, and the answer says none of the logger’s 7 laps matched one', async () => {
    const other = new Browser(server);
    await other.signIn('piloto-sem-linha@example.com');
    const text = file.text.replace(/^# End Point:.*\n/m, '');
    const res = await other.request('/api/imports?filename=sem-linha.csv', {
      method: 'POST',
      body: text,
      headers: { 'content-type': 'application/octet-stream' },
    });
    const body = (await res.json()) as ImportAnswer;
    expect(res.status).toBe(201);
    expect(body.loggerLaps).toEqual(file.laps);
    expect(body.laps.every((l) => l.loggerSeconds === null)).toBe(true);
    expect(body.warnings.find((w) => w.code === 'loggerLapsUnmatched')?.count).toBe(file.laps.length);
    expect(body.warnings.find((w) => w.code === 'loggerLapsUnmatched')?.message).toBe(
      '7 voltas do registrador não batem com nenhuma volta medida pelo GPS (terminam em outro ponto ou incluem uma parada): ali aparecem as voltas do GPS.',
    );
  });
});

import { gzipSync } from 'node:zlib';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ImportAnswer } from '#core/contracts/imports.contract.ts';
import type { TrackAnalysisResponse } from '#core/contracts/tracks.contract.ts';
import { parseGpsSix } from '#core/formats/gps-six.ts';
import * as W from '#core/imports/test-support/writers.ts';
import { writeTrackAddict } from '#core/imports/test-support/trackaddict-writer.ts';
import { buildRacingLine, generateSession } from '#core/sim/session-generator.ts';
import { gateAcross } from '#core/tracks/gate.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { addDevice, put } from '#test/fixtures.ts';
import { Browser, sameDatabase, startTestServer, type TestServer } from '#test/test-server.ts';
import { run } from '#server/cli/voltas.ts';
import { STUDY_FILE } from '../tracks/kept-studies';

// Imports through the HTTP API as two riders and an admin would: the formats, the session they
// make, who sees it, deleting it, and every kind of bad file.

let server: TestServer;
let ana: Browser;
let bia: Browser;
let admin: Browser;
const tracks = loadTracks();
const interlagos = tracks.find((t) => t.name === 'Interlagos')!;
const day = { y: 2026, m: 10, d: 4 };
const gen = generateSession(interlagos, { seed: 11, heats: 2, lapsPerHeat: [3, 4], gpsNoise: 0.2 });
const c = parseGpsSix(gen.gpsSix).value;
const truth = gen.laps.map((l) => l.lapSeconds);

async function importFile(b: Browser, filename: string, body: string | Buffer, query = '') {
  const res = await b.request(`/api/imports?filename=${encodeURIComponent(filename)}${query}`, {
    method: 'POST',
    body: typeof body === 'string' ? body : new Uint8Array(body),
    headers: { 'content-type': 'application/octet-stream' },
  });
  return { status: res.status, body: (await res.json()) as ImportAnswer & { code?: string; mensagem?: string } };
}

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: 'chefe@example.com' });
  ana = new Browser(server.baseUrl);
  await ana.signIn('ana@example.com');
  bia = new Browser(server.baseUrl);
  await bia.signIn('bia@example.com');
  admin = new Browser(server.baseUrl);
  await admin.signIn('chefe@example.com');
});
afterAll(async () => {
  await server.close();
});

describe('imports through the API', () => {
  let gpxAnswer: ImportAnswer;

  it('a GPX: 201 with the session, laps timed from the trace within 0.02 s, on the track it ran on', async () => {
    const { status, body } = await importFile(ana, 'Interlagos manhã.gpx', W.writeGpx(c, day));
    expect(status).toBe(201);
    gpxAnswer = body;
    expect(body.session.device).toMatch(/^imp[0-9a-f]{12}$/);
    expect(body.session).toMatchObject({ track: 'Interlagos', date: '04102026' });
    expect(body.track.source).toBe('bundled');
    const flying = body.laps.filter((l) => l.kind === 'flying');
    expect(flying.length).toBeGreaterThan(3);
    for (const l of flying) expect(Math.min(...truth.map((t) => Math.abs(t - l.seconds)))).toBeLessThanOrEqual(0.02);
  });

  it('the same bytes again: 200 with the same answer, nothing imported twice', async () => {
    const { status, body } = await importFile(ana, 'outro nome.gpx', W.writeGpx(c, day));
    expect(status).toBe(200);
    expect(body).toEqual(gpxAnswer);
  });

  it('the imported session reads like a device session: laps, GPS, track analysis', async () => {
    const s = gpxAnswer.session;
    const base = `/api/devices/${s.device}/sessions/${s.track}/${s.date}`;
    const laps = await ana.request(base + '/laps');
    expect(laps.status).toBe(200);
    const lapsBody = (await laps.json()) as { laps: { lapSeconds: number }[] };
    expect(lapsBody.laps.length).toBe(gpxAnswer.laps.length);
    const analysis = await ana.request(base + '/track-analysis');
    expect(analysis.status).toBe(200);
    const a = (await analysis.json()) as TrackAnalysisResponse;
    expect(a.track.name).toBe('Interlagos');
    expect(a.corners.length).toBeGreaterThan(5);
    expect((await ana.request(`/api/devices/${s.device}/tracks`)).status).toBe(200);
    const me = (await (await ana.request('/api/me')).json()) as { devices: string[] };
    expect(me.devices).toContain(s.device);
    // The columns the screens read (handed over at import, not parsed) are the stored gps.six's parse.
    const six = parseGpsSix(new Uint8Array(await (await ana.request(base + '/export/gps.six')).arrayBuffer())).value;
    const json = (await (await ana.request(base + '/gps')).json()) as {
      step: number;
      totalCount: number;
      columns: { latitude: number[]; longitude: number[]; strSpeedGps: number[] };
    };
    expect(json.totalCount).toBe(six.count);
    json.columns.latitude.forEach((lat, k) => {
      expect(lat).toBe(six.lat[k * json.step]);
      expect(json.columns.longitude[k]).toBe(six.lon[k * json.step]);
      expect(json.columns.strSpeedGps[k]).toBe(six.speed[k * json.step]);
    });
  });

  it('a VBO of the same day and track joins the same session (one session per track and day)', async () => {
    const later = generateSession(interlagos, {
      seed: 12,
      heats: 1,
      lapsPerHeat: [3, 3],
      gpsNoise: 0.2,
      startTimeMs: 17 * 3_600_000,
    });
    const { status, body } = await importFile(ana, 'tarde.vbo', W.writeVbo(parseGpsSix(later.gpsSix).value, day));
    expect(status).toBe(201);
    expect(body.session).toEqual(gpxAnswer.session);
    expect(body.files).toBe(2);
    expect(body.laps.length).toBeGreaterThan(gpxAnswer.laps.length);
  });

  it('the same ride as GPX, then as the logger’s RaceChrono CSV (issue 35): one recording, its laps once, and the answer says why', async () => {
    const d = { y: 2026, m: 10, d: 11 };
    const gpx = await importFile(ana, 'Interlagos celular.gpx', W.writeGpx(c, d));
    expect(gpx.status).toBe(201);
    const base = `/api/devices/${gpx.body.session.device}/sessions/${gpx.body.session.track}/${gpx.body.session.date}`;
    const pieces = async () =>
      ((await (await ana.request(base + '/track-analysis')).json()) as TrackAnalysisResponse).laps.map(
        (l) => `${l.heat}${l.number}`,
      );
    const alone = await pieces();
    const rc = await importFile(ana, 'Interlagos RaceChrono.csv', W.writeRaceChrono(c, d));
    expect(rc.status).toBe(201);
    expect(rc.body.session).toEqual(gpx.body.session);
    expect(rc.body.files).toBe(2);
    const same = rc.body.warnings.find((w) => w.code === 'sameRecording');
    expect(same?.message).toBe(
      'Este arquivo é a mesma gravação de Interlagos celular.gpx (mesmos horários): as voltas não foram duplicadas.',
    );
    // Each of the other file's warnings is not said again (its pause, once).
    expect(rc.body.warnings.filter((w) => w.code === 'gaps').length).toBe(1);
    // Each lap once: as many as the ride has, each heat and number once, the logger's laps once each.
    const key = (l: { heat: string; number: number }) => `${l.heat}${l.number}`;
    expect(rc.body.laps.map(key)).toEqual(gpx.body.laps.map(key));
    expect(new Set(rc.body.laps.map(key)).size).toBe(rc.body.laps.length);
    expect(rc.body.loggerLaps.length).toBeLessThanOrEqual(rc.body.laps.length);
    // Shown with the logger's own time (the file with the logger's laps makes the session).
    for (const l of rc.body.laps.filter((x) => x.kind === 'flying')) expect(l.seconds).toBe(l.loggerSeconds);
    // Read again, the session lists each lap once: the laps screen and the track analysis.
    const screen = (await (await ana.request(base + '/laps')).json()) as {
      laps: { heat: string; lapCount: number; lapSeconds: number }[];
    };
    expect(screen.laps.map((l) => `${l.heat}${l.lapCount}`)).toEqual(rc.body.laps.map(key));
    const both = await pieces();
    expect(both).toEqual(alone);
    expect(new Set(both).size).toBe(both.length);
    // The logger's own file once more, as SpeedAngle: its laps, like RaceChrono's, are the logger's, listed once.
    const sa = await importFile(
      ana,
      'INTERLAGOS 101126.sa',
      W.writeSpeedAngle(c, d, gen.laps, { a: { lat: 0, lon: 0 }, b: { lat: 0, lon: 0.0001 } }),
    );
    expect(sa.status).toBe(201);
    expect(sa.body.warnings[0]?.code).toBe('sameRecording');
    expect(sa.body.laps.map(key)).toEqual(rc.body.laps.map(key));
    expect(sa.body.loggerLaps).toEqual(rc.body.loggerLaps); // the first imported of the two stays (neither is richer)
    expect(await pieces()).toEqual(alone);
    // A file of the afternoon still joins as today: not the same recording, its laps added.
    const later = generateSession(interlagos, {
      seed: 14,
      heats: 1,
      lapsPerHeat: [3, 3],
      gpsNoise: 0.2,
      startTimeMs: 17 * 3_600_000,
    });
    const tarde = await importFile(ana, 'tarde.vbo', W.writeVbo(parseGpsSix(later.gpsSix).value, d));
    expect(tarde.status).toBe(201);
    expect(tarde.body.warnings.map((w) => w.code)).not.toContain('sameRecording');
    expect(tarde.body.laps.length).toBeGreaterThan(rc.body.laps.length);
  }, 60_000); // four imports, each rebuilding the session from its files

  it('six files of one track day: heats A to D, the runs past the fourth going on in D, each lap named once, the same on the laps screen and in the analysis', async () => {
    const dia = { y: 2026, m: 10, d: 20 };
    let answer!: ImportAnswer;
    for (let k = 0; k < 6; k++) {
      const run = generateSession(interlagos, {
        seed: 40 + k,
        heats: 1,
        lapsPerHeat: [2, 2],
        gpsNoise: 0.2,
        startTimeMs: (9 + k) * 3_600_000,
      });
      const r = await importFile(bia, `sessao${k + 1}.gpx`, W.writeGpx(parseGpsSix(run.gpsSix).value, dia));
      expect(r.status).toBe(201);
      answer = r.body;
    }
    const base = `/api/devices/${answer.session.device}/sessions/${answer.session.track}/${answer.session.date}`;
    const screen = (await (await bia.request(`${base}/laps`)).json()) as { laps: { heat: string; lapCount: number }[] };
    const analysis = (await (await bia.request(`${base}/track-analysis`)).json()) as TrackAnalysisResponse;
    const listed = screen.laps.map((l) => `${l.heat}${l.lapCount}`);
    const analysed = analysis.laps.map((l) => `${l.heat}${l.number}`);
    expect(new Set(listed).size).toBe(listed.length);
    expect(new Set(analysed).size).toBe(analysed.length);
    expect(analysed).toEqual(expect.arrayContaining(listed));
    expect(answer.laps.map((l) => `${l.heat}${l.number}`)).toEqual(listed);
    expect(new Set(listed.map((k) => k[0]))).toEqual(new Set(['A', 'B', 'C', 'D']));
  }, 60_000); // six imports, each rebuilding the session from its files

  it('another rider, and an admin, cannot see, read or delete it (404, as if it did not exist)', async () => {
    const s = gpxAnswer.session;
    const base = `/api/devices/${s.device}/sessions/${s.track}/${s.date}`;
    for (const who of [bia, admin]) {
      expect((await who.request(base + '/laps')).status).toBe(404);
      expect((await who.request(base + '/track-analysis')).status).toBe(404);
      expect((await who.request(base, { method: 'DELETE' })).status).toBe(404);
    }
    const me = (await (await bia.request('/api/me')).json()) as { devices: string[] };
    expect(me.devices).not.toContain(s.device);
  });

  it('a device session cannot be deleted this way (403), an imported one by its importer (204, then 404)', async () => {
    const token = await addDevice(server, '000000000077', 'ana@example.com');
    await put(server, '/api/device/v1/sessions/Interlagos/05102026/lap.six', token, gen.lapSix);
    expect(
      (await ana.request('/api/devices/000000000077/sessions/Interlagos/05102026', { method: 'DELETE' })).status,
    ).toBe(403);
    const other = await importFile(ana, 'x.nmea', W.writeNmea(c, { y: 2026, m: 10, d: 6 }));
    expect(other.status).toBe(201);
    const base = `/api/devices/${other.body.session.device}/sessions/${other.body.session.track}/${other.body.session.date}`;
    // Its corner study, kept beside its files by a first coaching read, goes with them.
    await ana.request(base + '/coaching');
    const study = `${other.body.session.device}/${other.body.session.track}/${other.body.session.date}/.derived/${STUDY_FILE}`;
    expect(await server.blobs.head(study)).toBeDefined();
    expect((await ana.request(base, { method: 'DELETE' })).status).toBe(204);
    expect((await ana.request(base + '/laps')).status).toBe(404);
    expect(await server.blobs.head(study)).toBeUndefined();
    // Gone with its files: importing it again makes it anew.
    expect((await importFile(ana, 'x.nmea', W.writeNmea(c, { y: 2026, m: 10, d: 6 }))).status).toBe(201);
  });

  it('every format, and a .gz of one, imports', async () => {
    const d = (n: number) => ({ y: 2026, m: 9, d: n });
    const files: [string, string | Buffer][] = [
      ['a.gpx', W.writeGpx(c, d(1), { version: '1.0' })],
      ['b.csv', W.writeRaceChrono(c, d(2))],
      ['c.csv', W.writeAim(c, d(3), gen.laps, 10)],
      ['d.sa', W.writeSpeedAngle(c, d(4), gen.laps, { a: { lat: 0, lon: 0 }, b: { lat: 0, lon: 0.0001 } })],
      ['05092026_gps.six', gen.gpsSix],
      ['f.gpx.gz', gzipSync(W.writeGpx(c, d(6)))],
    ];
    for (const [name, body] of files) {
      const r = await importFile(bia, name, body);
      expect(r.status, `${name}: ${JSON.stringify(r.body).slice(0, 300)}`).toBe(201);
      expect(r.body.laps.length, name).toBeGreaterThan(3);
    }
  });

  it('a TrackAddict CSV: 201, laps within 0.02 s of the truth, the logger’s laps from its Lap column and # Lap lines', async () => {
    const { status, body } = await importFile(
      bia,
      'Log-20260910-100000 Interlagos.csv',
      writeTrackAddict(c, { y: 2026, m: 9, d: 10 }, gen.laps, { crlf: true }),
    );
    expect(status, JSON.stringify(body).slice(0, 300)).toBe(201);
    expect(body.format).toBe('trackaddict');
    expect(body.session).toMatchObject({ track: 'Interlagos', date: '10092026' });
    const flying = body.laps.filter((l) => l.kind === 'flying');
    expect(flying.length).toBeGreaterThan(3);
    for (const l of flying) expect(Math.min(...truth.map((t) => Math.abs(t - l.seconds)))).toBeLessThanOrEqual(0.02);
    // Lap 0 runs from the start of the recording and the last never ends: the logger's laps are those between.
    expect(body.loggerLaps).toEqual(truth.slice(1, -1));
    // Each flying lap carries the logger's own time of it.
    for (const l of flying) expect(l.loggerSeconds).toBe(truth.find((t) => Math.abs(t - l.seconds) <= 0.02));
  });

  it('a SpeedAngle .sa with a sector line (issue 35): the laps shown carry the logger’s start/finish times, the laps screen too', async () => {
    const ride = generateSession(interlagos, { seed: 21, heats: 1, lapsPerHeat: [4, 4], gpsNoise: 0.2 });
    const line = buildRacingLine(interlagos);
    const gateAt = (k: number) => {
      const [lat, lon] = line.proj.toLatLon(line.x[k]!, line.y[k]!);
      return gateAcross({ lat, lon }, line.x[k + 1]! - line.x[k]!, line.y[k + 1]! - line.y[k]!);
    };
    const sa = W.writeSpeedAngle(parseGpsSix(ride.gpsSix).value, { y: 2026, m: 9, d: 25 }, ride.laps, gateAt(0), {
      sectorGate: gateAt(line.n >> 1),
    });
    const { status, body } = await importFile(bia, 'INTERLAGOS 092526.sa', sa);
    expect(status, JSON.stringify(body).slice(0, 300)).toBe(201);
    const own = ride.laps.slice(1).map((l) => l.lapSeconds); // the four flying laps and the in-lap
    expect(body.loggerLaps).toEqual(own);
    const flying = body.laps.filter((l) => l.kind === 'flying');
    expect(flying.map((l) => l.loggerSeconds)).toEqual(own.slice(0, 4));
    for (const l of flying) {
      expect(l.seconds).toBe(l.loggerSeconds);
      expect(Math.abs(l.gpsSeconds - l.seconds)).toBeLessThan(0.05);
    }
    expect(body.bestLapSeconds).toBe(Math.min(...own.slice(0, 4)));
    const s = body.session;
    const screen = (await (
      await bia.request(`/api/devices/${s.device}/sessions/${s.track}/${s.date}/laps`)
    ).json()) as { laps: { lapSeconds: number }[] };
    for (const t of own.slice(0, 4)) expect(screen.laps.map((l) => l.lapSeconds)).toContain(t);
  });

  it('a VBO’s own start line is used for the logger’s laps where it really crosses the trace, and said unused where it does not', async () => {
    const line = buildRacingLine(interlagos);
    const at = (k: number) => line.proj.toLatLon(line.x[k]!, line.y[k]!);
    const [lat, lon] = at(0);
    const across = gateAcross({ lat, lon }, line.x[1]! - line.x[0]!, line.y[1]! - line.y[0]!);
    const crossing = await importFile(
      bia,
      'linha.vbo',
      W.writeVbo(c, { y: 2026, m: 9, d: 20 }, { gate: across, lonFirst: true }),
    );
    expect(crossing.status).toBe(201);
    expect(crossing.body.loggerLaps.length).toBeGreaterThan(3);
    expect(crossing.body.warnings.map((w) => w.code)).not.toContain('fileLineUnused');
    // Two points along the straight (a logger that writes the line that way): no crossing.
    const [aLat, aLon] = at(5);
    const [bLat, bLon] = at(25);
    const along = await importFile(
      bia,
      'ao-longo.vbo',
      W.writeVbo(c, { y: 2026, m: 9, d: 21 }, { gate: { a: { lat: aLat, lon: aLon }, b: { lat: bLat, lon: bLon } } }),
    );
    expect(along.status).toBe(201);
    expect(along.body.loggerLaps).toEqual([]);
    expect(along.body.warnings.find((w) => w.code === 'fileLineUnused')?.message).toContain('não cruza o traçado');
    expect(along.body.laps.length).toBeGreaterThan(3); // timed at the track's own line all the same
  });

  it('a long file is stored as its gps.six line after line (written in pieces of 4,096 lines, their buffers taking turns)', async () => {
    const long = parseGpsSix(
      generateSession(interlagos, { seed: 13, hz: 25, heats: 1, lapsPerHeat: [16, 16], gpsNoise: 0.2 }).gpsSix,
    ).value;
    const r = await importFile(bia, 'longa.vbo', W.writeVbo(long, { y: 2026, m: 9, d: 22 }));
    expect(r.status).toBe(201);
    expect(r.body.samples).toBeGreaterThan(3 * 16_384);
    const s = r.body.session;
    const exported = await bia.request(`/api/devices/${s.device}/sessions/${s.track}/${s.date}/export/gps.six`);
    const six = parseGpsSix(new Uint8Array(await exported.arrayBuffer()));
    expect(six.problems).toEqual([]);
    expect(six.value.count).toBe(r.body.samples);
    let backwards = 0;
    for (let i = 1; i < six.value.count; i++) if (six.value.timeMs[i]! <= six.value.timeMs[i - 1]!) backwards++;
    expect(backwards).toBe(0); // a piece written over before it reached the file would repeat lines
    expect(six.value.lat[six.value.count - 1]).toBe(long.lat[long.count - 1]);
  });

  it('the gps.six’s lap.six replaces its laps with the device’s own', async () => {
    const r = await importFile(bia, 'lap.six', gen.lapSix);
    expect(r.status).toBe(201);
    expect(r.body.replacedLaps).toBe(true);
    expect((await importFile(ana, 'lap.six', gen.lapSix)).status).toBe(422); // ana has no gps.six of it
  });
});

describe('the CLI, as a third rider, on the same database and blobs as the server', () => {
  it('imports for its --owner only: she sees it through the API, the others do not', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'voltas-cli-import-'));
    const file = path.join(dir, 'arquivo.vbo');
    writeFileSync(file, W.writeVbo(c, { y: 2025, m: 12, d: 6 }));
    for (const [k, v] of Object.entries({ ...sameDatabase(server), DATA_DIR: server.dataDir })) vi.stubEnv(k, v);
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(await run(['import', file, '--owner', 'carla@example.com'])).toBe(0);
    } finally {
      out.mockRestore();
      vi.unstubAllEnvs();
    }
    const carla = new Browser(server.baseUrl);
    await carla.signIn('carla@example.com');
    const me = (await (await carla.request('/api/me')).json()) as { devices: string[] };
    const collection = me.devices.find((d) => d.startsWith('imp'))!;
    const dates = await carla.request(`/api/devices/${collection}/tracks/Interlagos/dates`);
    expect(((await dates.json()) as { dates: string[] }).dates).toEqual(['06122025']);
    for (const who of [ana, bia, admin])
      expect((await who.request(`/api/devices/${collection}/tracks/Interlagos/dates`)).status).toBe(404);
  });
});

describe('bad files are refused with a clear reason and store nothing', () => {
  const cases: [string, string | Buffer, number, string][] = [
    ['foto.jpg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46]), 415, 'import/unsupported-format'],
    ['planilha.csv', 'a,b,c\n1,2,3\n', 415, 'import/unsupported-format'],
    ['vazio.gpx', '', 422, 'import/no-fix'],
    [
      'laughs.gpx',
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><gpx>&lol2;</gpx>',
      422,
      'import/xml-dtd',
    ],
    [
      'xxe.gpx',
      '<?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><gpx><trk><name>&xxe;</name></trk></gpx>',
      422,
      'import/xml-dtd',
    ],
    [
      'sem-pontos.gpx',
      '<?xml version="1.0"?><gpx version="1.1"><trk><trkseg></trkseg></trk></gpx>',
      422,
      'import/no-fix',
    ],
    [
      'sem-data.vbo',
      '[header]\ntime\n[column names]\nsats time lat long velocity\n[data]\n010 120000.00 +01422.0 +02801.0 100.0\n',
      422,
      'import/no-date',
    ],
    ['gps.six', gen.gpsSix.slice(0, 2000), 422, 'import/no-date'],
    ['bomba.gz', gzipSync(Buffer.alloc(1)), 415, 'import/unsupported-format'],
    // A lap.six is held as text until its gps.six is found: never more than a lap.six can be (2 MiB), plain or inflated.
    ['enorme-lap.six', gen.lapSix.repeat(Math.ceil((3 << 20) / gen.lapSix.length)), 413, 'import/too-large'],
    [
      'enorme-lap.six.gz',
      gzipSync(gen.lapSix.repeat(Math.ceil((3 << 20) / gen.lapSix.length))),
      413,
      'import/too-large',
    ],
  ];
  for (const [name, body, status, code] of cases) {
    it(`${name}: ${status} ${code}, in Portuguese`, async () => {
      const r = await importFile(ana, name, body);
      expect(r.status).toBe(status);
      expect(r.body.code).toBe(code);
      expect(r.body.mensagem).toMatch(/[ãçéó]|nada foi gravado/);
    });
  }

  it('a GPX of 60 tags with 8,000 attributes each (issue 34): 422 import/xml-limit in Portuguese, nothing stored', async () => {
    const tags = Array.from(
      { length: 60 },
      (_, t) => `<extensions${Array.from({ length: 8000 }, (_, k) => ` a${k}="${t}"`).join('')}/>`,
    ).join('\n');
    const hostile = W.writeGpx(c, { y: 2026, m: 3, d: 9 }).replace('</trkseg>', `</trkseg>${tags}`);
    const count = async (table: 'lap_sessions' | 'import_files') =>
      Number(
        (
          await server.database.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = [await count('lap_sessions'), await count('import_files')];
    const r = await importFile(ana, 'atributos.gpx', hostile);
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('import/xml-limit');
    expect(r.body.mensagem).toContain('mais de 64 atributos');
    expect([await count('lap_sessions'), await count('import_files')]).toEqual(before);
    const me = (await (await ana.request('/api/me')).json()) as { devices: string[] };
    const collection = me.devices.find((d) => d.startsWith('imp'))!;
    expect(await server.blobs.head(`${collection}/Interlagos/09032026/gps.six`)).toBeUndefined();
    expect((await server.blobs.list(`${collection}/Interlagos/09032026/`, { maxResults: 10 })).items).toEqual([]);
  });

  it('the 415 lists the formats Voltas reads', async () => {
    const r = await importFile(ana, 'x.kml', '<kml></kml>');
    expect(r.status).toBe(415);
    for (const f of ['GPX', 'RaceChrono', 'VBO', 'AiM', 'NMEA', 'SpeedAngle', 'lap.six', '.gz'])
      expect(r.body.mensagem).toContain(f);
  });

  it('a truncated file imports what is complete and says where it stopped', async () => {
    const full = W.writeGpx(c, { y: 2026, m: 8, d: 1 });
    const r = await importFile(bia, 'cortado.gpx', full.slice(0, Math.floor(full.length * 0.7)));
    expect(r.status).toBe(201);
    const cut = r.body.warnings.find((w) => w.code === 'truncated');
    expect(cut?.line).toBeGreaterThan(100);
    expect(cut?.message).toContain('termina no meio');
  });

  it('a file of no known format: 415 from its first bytes, the rest never read', async () => {
    const chunk = Buffer.alloc(1 << 20, 0x41);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(ctl) {
        if (sent++ >= 300) ctl.close();
        else ctl.enqueue(chunk);
      },
    });
    const res = await ana
      .request('/api/imports?filename=big.gpx', {
        method: 'POST',
        body,
        duplex: 'half',
        headers: { 'content-type': 'text/csv' },
      } as RequestInit)
      .catch((e: Error) => e);
    expect(sent).toBeLessThan(100);
    if (!(res instanceof Error)) expect(res.status).toBe(415);
  });

  // Bodies over the size limit, .gz bombs and damaged .gz: imports-limits.integration.test.ts (with the limits made small).

  it('one rider runs at most two imports at once: a third is 429 while they are in flight', async () => {
    // A rider of this test alone: the probes below stay far under the 60 imports a minute.
    const dora = new Browser(server.baseUrl);
    await dora.signIn('dora@example.com');
    const releases: (() => void)[] = [];
    const slow = () =>
      new ReadableStream<Uint8Array>({
        start(ctl) {
          ctl.enqueue(new TextEncoder().encode('File created on 15/11/2026 at 10:00:00\n'));
          releases.push(() => ctl.close());
        },
      });
    const hold = [0, 1].map(() =>
      dora.request('/api/imports?filename=lento.vbo', {
        method: 'POST',
        body: slow(),
        duplex: 'half',
        headers: { 'content-type': 'text/plain' },
      } as RequestInit),
    );
    // Both in flight once the server says so; a busy machine takes a while to route them. A probe
    // of no known format takes a place for a moment while it gets its 415, so the first waits the
    // time the two usually need, and a slow machine gets more probes instead of a failure.
    await new Promise((r) => setTimeout(r, 300));
    await expect
      .poll(async () => (await importFile(dora, 'sonda.txt', 'x')).status, { timeout: 15_000, interval: 250 })
      .toBe(429);
    const third = await importFile(dora, 'terceiro.gpx', W.writeGpx(c, { y: 2026, m: 6, d: 1 }));
    expect(third.status).toBe(429);
    for (const release of releases) release();
    for (const res of await Promise.all(hold)) expect(res.status).toBe(422); // no data rows: refused once they end
  });

  it('signed out: 401', async () => {
    const r = await new Browser(server.baseUrl).request('/api/imports?filename=a.gpx', { method: 'POST', body: 'x' });
    expect(r.status).toBe(401);
  });
});

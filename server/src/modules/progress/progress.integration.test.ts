import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  CompareResponse,
  CornerProgress,
  PersonalBest,
  ProgressResponse,
} from '#core/contracts/progress.contract.ts';
import type { MySessions } from '#core/contracts/sessions.contract.ts';
import { parseGpsSix } from '#core/formats/gps-six.ts';
import { writeGpx } from '#core/imports/test-support/writers.ts';
import { lapFigures } from '#core/laps/lap-math.ts';
import { generateSession } from '#core/sim/session-generator.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { addDevice, put, readEvents } from '#test/fixtures.ts';
import { Browser, startTestServer, type TestServer } from '#test/test-server.ts';

// A rider's history through the API: personal bests across devices and imports, progress by day,
// corners between two days, two laps of different days compared, and a new record announced live.

let server: TestServer;
let ana: Browser;
let bia: Browser;
let token: string;
const tracks = loadTracks();
const interlagos = tracks.find((t) => t.name === 'Interlagos')!;
const curitiba = tracks.find((t) => t.name === 'Curitiba')!;
// Three track days on Ana's bike at Interlagos, a little faster each time; then a fourth day from
// another logger (imported), faster still.
const days = [
  {
    date: '05092026',
    gen: generateSession(interlagos, { seed: 41, heats: 2, lapsPerHeat: [4, 4], gpsNoise: 0.2, skill: 0.88 }),
  },
  {
    date: '03102026',
    gen: generateSession(interlagos, { seed: 42, heats: 2, lapsPerHeat: [4, 4], gpsNoise: 0.2, skill: 0.91 }),
  },
  {
    date: '07112026',
    gen: generateSession(interlagos, { seed: 43, heats: 2, lapsPerHeat: [4, 4], gpsNoise: 0.2, skill: 0.94 }),
  },
];
const imported = generateSession(interlagos, { seed: 44, heats: 1, lapsPerHeat: [5, 5], gpsNoise: 0.2, skill: 0.99 });
let importedAt = { device: '', track: '', date: '' };

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: 'chefe@example.com' });
  token = await addDevice(server, '000000000071', 'ana@example.com');
  ana = new Browser(server.baseUrl);
  await ana.signIn('ana@example.com');
  bia = new Browser(server.baseUrl);
  await bia.signIn('bia@example.com');
  // The import first: the device's days then arrive at a track Voltas knows.
  const gpx = writeGpx(parseGpsSix(imported.gpsSix).value, { y: 2026, m: 11, d: 21 });
  const res = await ana.request('/api/imports?filename=hoje.gpx', { method: 'POST', body: gpx });
  expect(res.status).toBe(201);
  importedAt = ((await res.json()) as { session: typeof importedAt }).session;
  expect(importedAt.track).toBe('Interlagos');
  for (const { date, gen } of days) {
    expect(
      (await put(server, `/api/device/v1/sessions/Interlagos/${date}/lap.six`, token, gen.lapSix)).status,
    ).toBeLessThan(300);
    expect(
      (await put(server, `/api/device/v1/sessions/Interlagos/${date}/gps.six`, token, gen.gpsSix)).status,
    ).toBeLessThan(300);
  }
});
afterAll(async () => {
  await server.close();
});

const get = async <T>(b: Browser, url: string) => {
  const res = await b.request(url);
  return { status: res.status, body: (await res.json()) as T };
};

describe('personal bests and progress', () => {
  it('the record at a track is the fastest lap of all the rider’s sessions there, devices and imports', async () => {
    const { status, body } = await get<{ records: PersonalBest[] }>(ana, '/api/sessions/records');
    expect(status).toBe(200);
    const record = body.records.find((r) => r.track === 'Interlagos')!;
    expect(record.device).toBe(importedAt.device);
    expect(record.date).toBe('21112026');
    for (const { gen } of days) expect(record.lapTimeMs).toBeLessThan(lapFigures(gen.laps).bestLapMs!);
    // The list shows the same lap as the session's best.
    const list = await get<MySessions>(ana, '/api/sessions?track=Interlagos');
    expect(list.body.sessions.find((s) => s.device === importedAt.device)!.bestLapMs).toBe(record.lapTimeMs);
    // Another rider has no record there; theirs are their own.
    expect((await get<{ records: PersonalBest[] }>(bia, '/api/sessions/records')).body.records).toEqual([]);
  });

  it('a session that arrives is analysed in the background: its ideal lap is in the list without anyone opening it', async () => {
    // Nobody has read these sessions' analyses: the uploads alone set their ideal laps going.
    await expect
      .poll(
        async () =>
          (await get<MySessions>(ana, '/api/sessions?track=Interlagos')).body.sessions.map((s) => s.idealLapMs),
        { timeout: 10_000 },
      )
      .not.toContain(null);
  });

  it('a first session at a circuit this server has not met: its ideal lap in the list, unread', async () => {
    const fresh = await startTestServer();
    try {
      const caioToken = await addDevice(fresh, '000000000072', 'caio@example.com');
      const caio = new Browser(fresh.baseUrl);
      await caio.signIn('caio@example.com');
      const gen = generateSession(curitiba, { seed: 45, heats: 1, lapsPerHeat: [4, 4], gpsNoise: 0.2 });
      for (const [file, text] of [
        ['lap.six', gen.lapSix],
        ['gps.six', gen.gpsSix],
      ] as const)
        expect(
          (await put(fresh, `/api/device/v1/sessions/Curitiba/10102026/${file}`, caioToken, text)).status,
        ).toBeLessThan(300);
      // Its circuit found by the list's own settling or the arrival's job (neither makes a derived track).
      await expect
        .poll(async () => (await get<MySessions>(caio, '/api/sessions')).body.sessions.map((s) => s.idealLapMs), {
          timeout: 10_000,
        })
        .toEqual([expect.any(Number)]);
    } finally {
      await fresh.close();
    }
  });

  it('progress: one point per day, oldest first, with best and ideal lap and consistency; the record’s day marked', async () => {
    const { status, body } = await get<ProgressResponse>(ana, '/api/sessions/progress?track=Interlagos');
    expect(status).toBe(200);
    expect(body.days.map((d) => d.date)).toEqual(['05092026', '03102026', '07112026', '21112026']);
    for (const [k, { date, gen }] of days.entries()) {
      const f = lapFigures(gen.laps);
      expect(body.days[k]).toMatchObject({
        bestLapMs: f.bestLapMs,
        theoreticalBestMs: f.theoreticalBestMs,
        consistencyMs: f.consistencyMs,
        personalBest: false,
      });
      expect(f.consistencyMs).not.toBeNull();
      // The ideal lap is the track analysis's (the best piece between corners of every flying lap).
      const analysis = await get<{ idealLapSeconds: number }>(
        ana,
        `/api/devices/000000000071/sessions/Interlagos/${date}/track-analysis`,
      );
      expect(body.days[k]!.idealLapMs).toBe(Math.round(analysis.body.idealLapSeconds * 1000));
      expect(body.days[k]!.idealLapMs!).toBeLessThanOrEqual(body.days[k]!.bestLapMs! + 500);
    }
    expect(body.days[3]!.personalBest).toBe(true);
    expect(body.personalBest!.device).toBe(importedAt.device);
    // Each day faster than the one before (the rider's skill grew).
    const bests = body.days.map((d) => d.bestLapMs!);
    expect([...bests].sort((a, b) => b - a)).toEqual(bests);
    // Nobody else's days.
    expect((await get<ProgressResponse>(bia, '/api/sessions/progress?track=Interlagos')).body.days).toEqual([]);
  });

  it('the corners that improved most and least between two chosen days', async () => {
    const { status, body } = await get<CornerProgress>(
      ana,
      '/api/sessions/progress/corners?track=Interlagos&from=05092026&to=07112026',
    );
    expect(status).toBe(200);
    expect(body.corners.length).toBeGreaterThan(5);
    const gains = body.corners.filter((c) => c.gainSeconds !== null);
    const most = gains.find((c) => c.corner === body.mostImproved)!;
    const least = gains.find((c) => c.corner === body.leastImproved)!;
    for (const c of gains) {
      expect(c.gainSeconds!).toBeLessThanOrEqual(most.gainSeconds!);
      expect(c.gainSeconds!).toBeGreaterThanOrEqual(least.gainSeconds!);
      expect(c.gainSeconds!).toBeCloseTo(c.fromSeconds! - c.toSeconds!, 2);
    }
    // Faster rider, faster corners: most of them gained.
    expect(gains.filter((c) => c.gainSeconds! > 0).length).toBeGreaterThan(gains.length / 2);
    expect((await get(ana, '/api/sessions/progress/corners?track=Interlagos&from=01012026&to=07112026')).status).toBe(
      404,
    );
    expect((await get(bia, '/api/sessions/progress/corners?track=Interlagos&from=05092026&to=07112026')).status).toBe(
      404,
    );
  });
});

describe('comparing laps across days', () => {
  const q = (extra: string) =>
    `/api/sessions/compare?device=000000000071&track=Interlagos&date=05092026&lap=A2&${extra}`;

  it('any two laps of the rider at one track: speed, lean and delta against position, corners and losses', async () => {
    const { status, body } = await get<CompareResponse>(
      ana,
      q('reference=lap&refDevice=000000000071&refTrack=Interlagos&refDate=07112026&refLap=B2'),
    );
    expect(status).toBe(200);
    expect(body.lap).toMatchObject({ date: '05092026', heat: 'A', number: 2, device: '000000000071', shared: false });
    expect(body.reference).toMatchObject({ date: '07112026', heat: 'B', number: 2 });
    expect(body.x.length).toBeGreaterThan(500);
    expect(body.speed[0]).toHaveLength(body.x.length);
    expect(body.lean[1]).toHaveLength(body.x.length);
    // The delta at the line is the difference of the two lap times.
    const last = body.delta.filter((d) => d !== null).at(-1)!;
    expect(last).toBeCloseTo(body.lap.seconds - body.reference.seconds, 0);
    expect(body.comparison.deltaSeconds).toBeCloseTo(body.lap.seconds - body.reference.seconds, 6);
    expect(body.comparison.segments.length).toBeGreaterThan(10);
    expect(body.comparison.lapCorners).toHaveLength(body.corners.length);
    // The earlier, slower lap lost time overall.
    expect(body.comparison.deltaSeconds).toBeGreaterThan(0);
  });

  it('"comparar com meu recorde": against the personal best, wherever it was ridden (here an import)', async () => {
    const { status, body } = await get<CompareResponse>(ana, q('reference=record'));
    expect(status).toBe(200);
    expect(body.reference).toMatchObject({ date: '21112026', device: importedAt.device });
    const record = (await get<{ records: PersonalBest[] }>(ana, '/api/sessions/records')).body.records[0]!;
    expect(`${body.reference.heat}${body.reference.number}`).toBe(`${record.heat}${record.lapCount}`);
  });

  it('refuses what cannot be compared, and what is not the caller’s', async () => {
    expect(
      (await get(ana, q('reference=lap&refDevice=000000000071&refTrack=Interlagos&refDate=07112026&refLap=A99')))
        .status,
    ).toBe(404);
    expect((await get(ana, q('reference=lap'))).status).toBe(400);
    expect((await get(ana, q('reference=share'))).status).toBe(400);
    expect(
      (
        await get(
          ana,
          '/api/sessions/compare?device=000000000071&track=Interlagos&date=05092026&lap=Z2&reference=record',
        )
      ).status,
    ).toBe(400);
    // Bia may not read Ana's laps, as either side.
    expect((await get(bia, q('reference=record'))).status).toBe(404);
    expect(
      (await get(bia, q('reference=lap&refDevice=000000000071&refTrack=Interlagos&refDate=07112026&refLap=B2'))).status,
    ).toBe(404);
    // Another track: Curitiba's session against Interlagos's is 422, in Portuguese too.
    const gen = generateSession(curitiba, { seed: 45, heats: 1, lapsPerHeat: [3, 3], gpsNoise: 0.2 });
    await put(server, '/api/device/v1/sessions/Curitiba/12112026/lap.six', token, gen.lapSix);
    await put(server, '/api/device/v1/sessions/Curitiba/12112026/gps.six', token, gen.gpsSix);
    const res = await get<{ code: string; mensagem: string }>(
      ana,
      q('reference=lap&refDevice=000000000071&refTrack=Curitiba&refDate=12112026&refLap=A1'),
    );
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('track/different-tracks');
    expect(res.body.mensagem).toMatch(/pistas/);
  });
});

describe('a new personal best, live', () => {
  it('is announced to the rider when its session arrives; others hear of the upload without it', async () => {
    const chefe = new Browser(server.baseUrl);
    await chefe.signIn('chefe@example.com');
    const stop = new AbortController();
    const anaEvents = await ana.request('/api/events', { signal: stop.signal });
    const chefeEvents = await chefe.request('/api/events', { signal: stop.signal });
    // A day slower than the record: an upload, no record.
    const slow = generateSession(interlagos, { seed: 46, heats: 1, lapsPerHeat: [3, 3], gpsNoise: 0.2, skill: 0.9 });
    await put(server, '/api/device/v1/sessions/Interlagos/22112026/lap.six', token, slow.lapSix);
    // Then one faster than the record.
    const fast = generateSession(interlagos, { seed: 47, heats: 1, lapsPerHeat: [3, 3], gpsNoise: 0.2, skill: 1.05 });
    const record = (await get<{ records: PersonalBest[] }>(ana, '/api/sessions/records')).body.records.find(
      (r) => r.track === 'Interlagos',
    )!;
    expect(lapFigures(fast.laps).bestLapMs!).toBeLessThan(record.lapTimeMs);
    await put(server, '/api/device/v1/sessions/Interlagos/23112026/lap.six', token, fast.lapSix);
    // After the analysis job (pg-boss polls each second): up to 15 s on a busy machine.
    const anaText = await readEvents(anaEvents, /23112026[^\n]*personalBest/, 15_000);
    const events = anaText
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice(6)) as { date: string; personalBest?: { lapTimeMs: number; previousMs: number } });
    // The upload is heard at once; the record once the session's figures are settled (its one lap list).
    expect(events.filter((e) => e.date === '22112026').every((e) => e.personalBest === undefined)).toBe(true);
    expect(events.filter((e) => e.date === '23112026').map((e) => e.personalBest)).toEqual([
      undefined,
      { lapTimeMs: lapFigures(fast.laps).bestLapMs, previousMs: record.lapTimeMs },
    ]);
    const chefeText = await readEvents(chefeEvents, /23112026/, 5000);
    expect(chefeText).toContain('23112026');
    expect(chefeText).not.toContain('personalBest');
    stop.abort();
    // And the record is the new lap now.
    const now = (await get<{ records: PersonalBest[] }>(ana, '/api/sessions/records')).body.records.find(
      (r) => r.track === 'Interlagos',
    )!;
    expect(now).toMatchObject({ date: '23112026', lapTimeMs: lapFigures(fast.laps).bestLapMs });
  });
});

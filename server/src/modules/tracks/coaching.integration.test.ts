import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoachingResponse } from '#core/contracts/tracks.contract.ts';
import { generateSession } from '#core/sim/session-generator.ts';
import { definitionFromCatalogue } from '#core/tracks/track-definition.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { addDevice, put } from '#test/fixtures.ts';
import { Browser, startTestServer, type TestServer } from '#test/test-server.ts';
import { JOBS } from '../../jobs/jobs';

// The corner study through the HTTP API: a session uploaded by a device, studied once by the
// analysis job, read as its rider in three languages and two units (SQLite here; PostgreSQL and
// S3 with VOLTAS_TEST_PG_URL and VOLTAS_TEST_S3).

const DEVICE = '000000000062';
const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;
const corners = definitionFromCatalogue(interlagos.points, interlagos.startFinish!, true).corners;
// Every flying lap at one pace but A2, which brakes 15 m earlier into T1, and A3, 8 km/h slower through T4.
const gen = generateSession(interlagos, {
  seed: 1,
  hz: 25,
  heats: 1,
  lapsPerHeat: [5, 5],
  exactPace: 0.95,
  changes: {
    A2: [{ kind: 'brake-earlier', atM: corners[0]!.apexM, metres: 15 }],
    A3: [{ kind: 'lower-min', atM: corners[3]!.apexM, kmh: 8 }],
  },
});
const url = (query: string) => `/api/devices/${DEVICE}/sessions/Interlagos/01112026/coaching?${query}`;

let server: TestServer;
let rider: Browser;

/** The job's runs that went well (it runs a moment after the files arrive). */
async function jobRuns(): Promise<number> {
  let sum = 0;
  for (const { labels, value } of (await server.metrics.jobRuns.get()).values)
    if (labels.job === JOBS.analyseSession && labels.outcome === 'ok') sum += value;
  return sum;
}
async function studiesKept(): Promise<number> {
  const entry = (await server.metrics.cacheEntries.get()).values.find((v) => v.labels.cache === 'track-studies');
  return entry?.value ?? 0;
}

beforeAll(async () => {
  server = await startTestServer();
  const token = await addDevice(server, DEVICE, 'piloto@example.com');
  expect(
    (await put(server, `/api/device/v1/sessions/Interlagos/01112026/lap.six`, token, gen.lapSix)).status,
  ).toBeLessThan(300);
  expect(
    (await put(server, `/api/device/v1/sessions/Interlagos/01112026/gps.six`, token, gen.gpsSix)).status,
  ).toBeLessThan(300);
  rider = new Browser(server.baseUrl);
  await rider.signIn('piloto@example.com');
});
afterAll(async () => {
  await server?.close();
});

describe('GET …/coaching', () => {
  it('is studied by the analysis job once the session arrives, before anyone reads it', async () => {
    await expect.poll(jobRuns, { timeout: 20_000, interval: 100 }).toBeGreaterThanOrEqual(1);
    expect(await studiesKept()).toBe(1);
  });

  it('finds A2’s earlier braking into T1 against A5, within the accuracy it states', async () => {
    const { status, body } = await rider.json(url('lap=A2&ref=A5'), { headers: { 'accept-language': 'en' } });
    expect(status).toBe(200);
    const c = body as CoachingResponse;
    expect(c.lap).toBe('A2');
    expect(c.reference).toMatchObject({ kind: 'lap', lap: 'A5' });
    expect(c.hz).toBe(25);
    expect(c.leanSource).toBe('device');
    const t1 = c.corners.find((x) => x.name === 'T1')!;
    expect(Math.abs(t1.brakeDeltaM! + 15)).toBeLessThanOrEqual(t1.accuracyM);
    expect(t1.verdicts.brake).toBe('earlier');
    expect(c.corners.reduce((a, x) => a + x.timeLostS!, 0)).toBeCloseTo(c.deltaSeconds, 1);
    expect(c.profile.speed[0].length).toBe(c.profile.speed[1].length);
    expect(c.profile.speed[0].length * c.profile.stepM).toBeGreaterThan(4000);
    expect(c.gg.lateral.length).toBeGreaterThan(100);
    expect(c.gg.envelope).toHaveLength(36);
    // Still one study: the read did not study the session again.
    expect(await studiesKept()).toBe(1);
  });

  it('leads with at most three tips in the rider’s language and units', async () => {
    const tipsOf = async (language: string, units: string) => {
      const { status, body } = await rider.json(url(`lap=A3&ref=A5&units=${units}`), {
        headers: { 'accept-language': language },
      });
      expect(status).toBe(200);
      return (body as CoachingResponse).tips;
    };
    const en = await tipsOf('en-GB', 'metric');
    expect(en.length).toBeGreaterThan(0);
    expect(en.length).toBeLessThanOrEqual(3);
    expect(en[0]!.corner).toBe('T4');
    expect(en[0]!.text).toMatch(/^T4: .*km\/h less to the apex.*: about 0\.\d s$/);
    expect((await tipsOf('en-US', 'imperial'))[0]!.text).toMatch(/mph less to the apex/);
    expect((await tipsOf('pt-BR', 'metric'))[0]!.text).toMatch(/a menos ao ápice.*: cerca de 0,\d s$/);
    expect((await tipsOf('es', 'metric'))[0]!.text).toMatch(/menos al vértice.*: unos 0,\d s$/);
  });

  it('against the ideal lap (the default) and the record, says which laps make the ideal lap', async () => {
    const ideal = (await rider.json(url('lap=A3'))).body as CoachingResponse;
    expect(ideal.reference.kind).toBe('ideal');
    expect(ideal.ideal.laps.every((l) => l !== null && /^A[1-5]$/.test(l))).toBe(true);
    expect(ideal.deltaSeconds).toBeGreaterThanOrEqual(0);
    for (const j of ideal.ideal.joins) expect(j.kmhApart).toBeLessThanOrEqual(5);
    const record = (await rider.json(url('lap=A3&ref=record'))).body as CoachingResponse;
    expect(record.reference.kind).toBe('lap');
    expect(record.reference.session).toEqual({ device: DEVICE, track: 'Interlagos', date: '01112026' });
  });

  it('is one answer per version: the same bytes again, 304 to the browser that has them, another for another language', async () => {
    const read = (language: string, more: Record<string, string> = {}) =>
      rider.request(url('lap=A3&ref=A5'), { headers: { 'accept-language': language, ...more } });
    const first = await read('en', { 'accept-encoding': 'gzip' });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    expect(first.headers.get('content-encoding')).toBe('gzip');
    const text = await first.text();
    expect(await (await read('en', { 'accept-encoding': 'br' })).text()).toBe(text);
    expect(await (await read('en', { 'accept-encoding': 'identity' })).text()).toBe(text);
    expect((await read('en', { 'if-none-match': etag })).status).toBe(304);
    const pt = await read('pt-BR', { 'if-none-match': etag });
    expect(pt.status).toBe(200);
    expect(pt.headers.get('etag')).not.toBe(etag);
    expect(((await pt.json()) as CoachingResponse).tips[0]!.text).toMatch(/a menos ao ápice/);
  });

  it('refuses what it cannot answer, by name', async () => {
    const bad = await rider.json(url('lap=Z9'), { headers: { 'accept-language': 'en' } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/lap/);
    expect((await rider.json(url('lap=A2&ref=lap'))).status).toBe(400);
    expect((await rider.json(url('lap=A9'))).status).toBe(404);
    expect((await rider.json(url('lap=A2&units=furlongs'))).status).toBe(400);
    const stranger = new Browser(server.baseUrl);
    await stranger.signIn('outro@example.com');
    expect((await stranger.json(url('lap=A2'))).status).toBe(404);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MySessions } from '#core/contracts/sessions.contract.ts';
import { parseGpsSix } from '#core/formats/gps-six.ts';
import { writeGpx } from '#core/imports/test-support/writers.ts';
import { generateSession } from '#core/sim/session-generator.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { addDevice, put } from '#test/fixtures.ts';
import { Browser, startTestServer, type TestServer } from '#test/test-server.ts';

// 'Minhas sessões' through the API: the rider's own sessions (device and imports), newest first,
// page by page, filtered by track; nobody else's, not the demo device's.

let server: TestServer;
let ana: Browser;
let bia: Browser;
const tracks = loadTracks();
const interlagos = tracks.find((t) => t.name === 'Interlagos')!;
const gen = generateSession(interlagos, { seed: 31, heats: 2, lapsPerHeat: [3, 3], gpsNoise: 0.2 });
/** The session's fastest lap, out-laps (lap 0) left out. */
const best = Math.min(...gen.laps.filter((l) => l.lapCount > 0).map((l) => l.lapTimeMs));
const dates = Array.from({ length: 9 }, (_, k) => `${String(k + 1).padStart(2, '0')}102026`);

beforeAll(async () => {
  server = await startTestServer({}, { inject: true });
  const token = await addDevice(server, '000000000061', 'ana@example.com');
  for (const date of dates)
    expect(
      (await put(server, `/api/device/v1/sessions/Interlagos/${date}/lap.six`, token, gen.lapSix)).status,
    ).toBeLessThan(300);
  await put(server, `/api/device/v1/sessions/Curitiba/15102026/lap.six`, token, gen.lapSix);
  const other = await addDevice(server, '000000000062', 'bia@example.com');
  await put(server, `/api/device/v1/sessions/Monza/20102026/lap.six`, other, gen.lapSix);
  ana = new Browser(server);
  await ana.signIn('ana@example.com');
  bia = new Browser(server);
  await bia.signIn('bia@example.com');
  const gpx = writeGpx(parseGpsSix(gen.gpsSix).value, { y: 2026, m: 10, d: 31 });
  expect((await ana.request('/api/imports?filename=a.gpx', { method: 'POST', body: gpx })).status).toBe(201);
});
afterAll(async () => {
  await server.close();
});

const page = async (b: Browser, query: string) => {
  const res = await b.request(`/api/sessions${query}`);
  return { status: res.status, body: (await res.json()) as MySessions };
};

describe('Minhas sessões', () => {
  it('newest first, page by page, every own session once: device and imports, with best lap, laps and heats', async () => {
    const seen: MySessions['sessions'] = [];
    let after: string | null = '';
    while (after !== null) {
      const { status, body } = await page(ana, `?limit=4${after ? `&after=${after}` : ''}`);
      expect(status).toBe(200);
      expect(body.sessions.length).toBeLessThanOrEqual(4);
      seen.push(...body.sessions);
      after = body.next;
    }
    expect(seen.map((s) => s.date)).toEqual(['31102026', '15102026', ...[...dates].reverse()]);
    expect(seen[0]).toMatchObject({ track: 'Interlagos', imported: true, heats: 2 });
    expect(seen[0]!.device).toMatch(/^imp/);
    const device = seen.find((s) => s.date === '01102026')!;
    expect(device).toMatchObject({
      device: '000000000061',
      imported: false,
      bestLapMs: best,
      laps: gen.laps.length,
      heats: 2,
    });
    const { body } = await page(ana, '');
    expect(body.tracks).toEqual(['Curitiba', 'Interlagos']);
  });

  it('filtered by track', async () => {
    const { body } = await page(ana, '?track=Curitiba');
    expect(body.sessions.map((s) => s.date)).toEqual(['15102026']);
    expect(body.next).toBeNull();
  });

  it("another rider's list holds only hers, and a tampered cursor is a 400", async () => {
    const { body } = await page(bia, '');
    expect(body.sessions.map((s) => `${s.track} ${s.date}`)).toEqual(['Monza 20102026']);
    expect((await page(ana, '?after=bm90LWEtY3Vyc29y')).status).toBe(400);
    expect((await page(ana, '?limit=0')).status).toBe(400);
    expect((await page(ana, '?limit=1000')).status).toBe(400);
  });

  it('signed out: 401', async () => {
    expect((await new Browser(server).request('/api/sessions')).status).toBe(401);
  });
});

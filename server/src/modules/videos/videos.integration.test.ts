import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGpsSix } from '#core/formats/gps-six.ts';
import { ptBR } from '#core/i18n/messages/pt-BR.ts';
import { writeGpx } from '#core/imports/test-support/writers.ts';
import { generateSession } from '#core/sim/session-generator.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { addDevice, GPS_LINE, LAP_LINE, put } from '#test/fixtures.ts';
import { Browser, startTestServer, type TestServer } from '#test/test-server.ts';

// Video syncs over real HTTP: a rider keeps how their files line up with a session; nobody else,
// not an admin reading that session nor a link holder, sees them.
const DEVICE = '000000000070';
const SESSION = `/api/devices/${DEVICE}/sessions/Interlagos/01112026`;
const uuid = (n: number) => `6f1c2d3e-4b5a-4c6d-8e7f-${n.toString(16).padStart(12, '0')}`;
const sync = (n: number, changes: object = {}) => ({
  id: uuid(n),
  name: `GX01${String(n).padStart(4, '0')}.MP4`,
  size: 4_294_967_296 + n, // past 2^32, as a GoPro chapter
  // Zero-padded: padded with 'f', 11 and 251 (0xfb) would share a fingerprint.
  fingerprint: n.toString(16).padStart(64, '0'),
  offsetMs: 1_793_000_000_000.25 + n,
  driftPpm: -12.5,
  method: 'gpmf',
  errorMs: 18,
  ...changes,
});

/** A DELETE as the page sends it: no body. */
async function forget(browser: Browser, url: string): Promise<{ status: number; body: unknown }> {
  const res = await browser.request(url, { method: 'DELETE', headers: { origin: server.baseUrl } });
  return { status: res.status, body: await res.json() };
}

let server: TestServer;
let rider: Browser;
let other: Browser;
let admin: Browser;
beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: 'admin@example.com' }, { inject: true });
  const token = await addDevice(server, DEVICE, 'rider@example.com');
  await put(server, '/api/device/v1/sessions/Interlagos/01112026/lap.six', token, LAP_LINE);
  await put(server, '/api/device/v1/sessions/Interlagos/01112026/gps.six', token, GPS_LINE);
  [rider, other, admin] = [new Browser(server), new Browser(server), new Browser(server)];
  await rider.signIn('rider@example.com');
  await other.signIn('other@example.com');
  await admin.signIn('admin@example.com');
});
afterAll(async () => {
  await server.close();
});

describe('video syncs', () => {
  it('stores, replaces, lists and forgets the rider’s syncs, large sizes and fractional offsets intact', async () => {
    expect((await rider.json(`${SESSION}/videos`)).body).toEqual([]);
    const first = await rider.json(`${SESSION}/videos/${uuid(1)}`, { method: 'PUT', body: JSON.stringify(sync(1)) });
    expect(first).toEqual({ status: 200, body: sync(1) });
    await rider.json(`${SESSION}/videos/${uuid(2)}`, {
      method: 'PUT',
      body: JSON.stringify(sync(2, { method: 'manual', driftPpm: 0 })),
    });
    // Synced again (by hand this time): the same id is replaced, not added.
    const again = sync(1, { method: 'manual', offsetMs: 1_793_000_000_123.5, errorMs: 100 });
    expect(
      (await rider.json(`${SESSION}/videos/${uuid(1)}`, { method: 'PUT', body: JSON.stringify(again) })).status,
    ).toBe(200);
    const listed = await rider.json(`${SESSION}/videos`);
    expect(listed.body).toHaveLength(2);
    expect(listed.body).toContainEqual(again);
    expect(listed.body).toContainEqual(sync(2, { method: 'manual', driftPpm: 0 }));
    expect((await forget(rider, `${SESSION}/videos/${uuid(2)}`)).body).toEqual({ ok: true });
    expect((await rider.json(`${SESSION}/videos`)).body).toEqual([again]);
  });

  it('refuses a malformed sync, or one whose id is not the path’s, and stores nothing', async () => {
    for (const body of [
      sync(3, { id: uuid(4) }),
      sync(3, { fingerprint: 'xyz' }),
      sync(3, { method: 'guess' }),
      sync(3, { driftPpm: 5000 }),
      { id: uuid(3) },
    ]) {
      const res = await rider.json(`${SESSION}/videos/${uuid(3)}`, { method: 'PUT', body: JSON.stringify(body) });
      expect(res.status).toBe(400);
      expect(typeof res.body.mensagem).toBe('string');
    }
    expect(
      (await rider.json(`${SESSION}/videos/not-a-uuid`, { method: 'PUT', body: JSON.stringify(sync(3)) })).status,
    ).toBe(400);
    expect((await rider.json(`${SESSION}/videos`)).body.map((v: { id: string }) => v.id)).toEqual([uuid(1)]);
  });

  it('shows them to nobody else: another rider gets 404, an admin reading the session sees only their own', async () => {
    expect((await other.json(`${SESSION}/videos`)).status).toBe(404);
    expect(
      (await other.json(`${SESSION}/videos/${uuid(9)}`, { method: 'PUT', body: JSON.stringify(sync(9)) })).status,
    ).toBe(404);
    expect((await forget(other, `${SESSION}/videos/${uuid(1)}`)).status).toBe(404);
    expect((await admin.json(`${SESSION}/videos`)).body).toEqual([]);
    // The admin's delete reaches only the admin's own syncs.
    expect((await forget(admin, `${SESSION}/videos/${uuid(1)}`)).status).toBe(200);
    expect((await rider.json(`${SESSION}/videos`)).body).toHaveLength(1);
    const anonymous = await new Browser(server).json(`${SESSION}/videos`);
    expect(anonymous.status).toBe(401);
  });

  it('keeps at most 50 per rider and session, and rate-limits the writes', async () => {
    for (let n = 100; n < 150; n++) {
      expect(
        (await admin.json(`${SESSION}/videos/${uuid(n)}`, { method: 'PUT', body: JSON.stringify(sync(n)) })).status,
      ).toBe(200);
    }
    const full = await admin.json(`${SESSION}/videos/${uuid(150)}`, { method: 'PUT', body: JSON.stringify(sync(150)) });
    expect(full.status).toBe(409);
    expect(full.body).toMatchObject({ code: 'video/limit-reached', mensagem: ptBR['errors.video/limit-reached'] });
    // Replacing one already kept is still fine, until the minute's writes run out.
    let status = 200;
    for (let i = 0; i < 20 && status === 200; i++) {
      status = (await admin.json(`${SESSION}/videos/${uuid(100)}`, { method: 'PUT', body: JSON.stringify(sync(100)) }))
        .status;
    }
    expect(status).toBe(429);
    expect((await admin.json(`${SESSION}/videos`)).body).toHaveLength(50);
  });

  it('keeps at most 50 when 60 PUTs arrive at once (counting and storing are one step)', async () => {
    // A rider of their own, with the minute's 60 writes all unused.
    const device = '000000000071';
    const token = await addDevice(server, device, 'racer@example.com');
    await put(server, `/api/device/v1/sessions/Interlagos/01112026/lap.six`, token, LAP_LINE);
    await put(server, `/api/device/v1/sessions/Interlagos/01112026/gps.six`, token, GPS_LINE);
    const racer = new Browser(server);
    await racer.signIn('racer@example.com');
    const session = `/api/devices/${device}/sessions/Interlagos/01112026`;
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        racer.json(`${session}/videos/${uuid(200 + i)}`, { method: 'PUT', body: JSON.stringify(sync(200 + i)) }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(50);
    expect(statuses.filter((s) => s === 409)).toHaveLength(10);
    expect((await racer.json(`${session}/videos`)).body).toHaveLength(50);
  });

  it('go with their session: deleting an imported session removes its syncs, and a re-import starts with none', async () => {
    const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;
    const gen = generateSession(interlagos, { seed: 9, heats: 1, lapsPerHeat: [2, 2], gpsNoise: 0.2 });
    const gpx = writeGpx(parseGpsSix(gen.gpsSix).value, { y: 2026, m: 11, d: 8 });
    const importIt = async () => {
      const res = await rider.request('/api/imports?filename=b.gpx', {
        method: 'POST',
        headers: { origin: server.baseUrl, 'content-type': 'application/gpx+xml' },
        body: gpx,
      });
      expect(res.status).toBe(201);
      const { session } = (await res.json()) as { session: { device: string; track: string; date: string } };
      return `/api/devices/${session.device}/sessions/${encodeURIComponent(session.track)}/${session.date}`;
    };
    const keptOf = async (fingerprint: string) =>
      (await server.database.db.selectFrom('video_syncs').select('id').where('fingerprint', '=', fingerprint).execute())
        .length;
    const base = await importIt();
    expect(
      (await rider.json(`${base}/videos/${uuid(11)}`, { method: 'PUT', body: JSON.stringify(sync(11)) })).status,
    ).toBe(200);
    expect(await keptOf(sync(11).fingerprint)).toBe(1);
    expect((await rider.request(base, { method: 'DELETE', headers: { origin: server.baseUrl } })).status).toBe(204);
    expect(await keptOf(sync(11).fingerprint)).toBe(0);
    expect((await rider.json(`${base}/videos`)).status).toBe(404);
    // The same file imported again is the same session address: none of the deleted one's syncs come back.
    expect(await importIt()).toBe(base);
    expect((await rider.json(`${base}/videos`)).body).toEqual([]);
    // The rider's syncs of other sessions stay.
    expect((await rider.json(`${SESSION}/videos`)).body).toHaveLength(1);
  });

  it('a share link carries none of them', async () => {
    const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;
    const gen = generateSession(interlagos, { seed: 8, heats: 1, lapsPerHeat: [3, 3], gpsNoise: 0.2 });
    const imported = await rider.request('/api/imports?filename=a.gpx', {
      method: 'POST',
      headers: { origin: server.baseUrl, 'content-type': 'application/gpx+xml' },
      body: writeGpx(parseGpsSix(gen.gpsSix).value, { y: 2026, m: 11, d: 7 }),
    });
    expect(imported.status).toBe(201);
    const { session } = (await imported.json()) as { session: { device: string; track: string; date: string } };
    const path = `/api/devices/${session.device}/sessions/${encodeURIComponent(session.track)}/${session.date}/videos/${uuid(7)}`;
    expect((await rider.json(path, { method: 'PUT', body: JSON.stringify(sync(7)) })).status).toBe(200);
    for (const lap of [undefined, 'A1']) {
      const share = await rider.json('/api/shares', {
        method: 'POST',
        body: JSON.stringify({ ...session, ...(lap ? { lap } : {}) }),
      });
      expect(share.status).toBe(201);
      const token = new URL((share.body as { url: string }).url).pathname.split('/').pop()!;
      const holder = new Browser(server);
      for (const url of [`/api/shared/${token}`, ...(lap ? [`/api/shared/${token}/lap`] : [])]) {
        const res = await holder.request(url);
        expect(res.status).toBe(200);
        const text = await res.text();
        for (const secret of [sync(7).name, sync(7).fingerprint, uuid(7), 'offsetMs', 'video'])
          expect(text).not.toContain(secret);
      }
    }
    // No route under a link reads videos.
    expect(server.app.accessRules.filter((r) => r.url.startsWith('/api/shared') && r.url.includes('video'))).toEqual(
      [],
    );
  });
});

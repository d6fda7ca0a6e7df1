import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSession } from '#core/sim/session-generator.ts';
import { addDevice, GPS_LINE, LAP_LINE, put, readEvents } from '#test/fixtures.ts';
import { Browser, startTestServer, type TestServer } from '#test/test-server.ts';
import { loadTracks } from './lib/track-files';
import { setDisabled } from './modules/users/users.repository';

// A device changing hands hands over nobody's data (issue 19, holes 1, 2 and 7), through real
// HTTP on SQLite and, in the PostgreSQL run, on PostgreSQL and S3.

const DEVICE = '000000000999';
const A = 'owner.a@example.com';
const B = 'owner.b@example.com';
const session = generateSession(loadTracks()[0]!, { seed: 19, heats: 1, lapsPerHeat: [3, 3] });
const SESSION = `/api/devices/${DEVICE}/sessions/GRATTAN/30082020`;

let server: TestServer;
let admin: Browser;
let a: Browser;
let b: Browser;
let tokenOfA: string;

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: 'chefe@example.com' });
  tokenOfA = await addDevice(server, DEVICE, A);
  expect((await put(server, '/api/device/v1/sessions/GRATTAN/30082020/gps.six', tokenOfA, session.gpsSix)).status).toBe(
    200,
  );
  expect((await put(server, '/api/device/v1/sessions/GRATTAN/30082020/lap.six', tokenOfA, session.lapSix)).status).toBe(
    200,
  );
  admin = new Browser(server.baseUrl);
  await admin.signIn('chefe@example.com');
  a = new Browser(server.baseUrl);
  await a.signIn(A);
  b = new Browser(server.baseUrl);
  await b.signIn(B);
});
afterAll(async () => {
  await server.close();
});

async function assignTo(email: string): Promise<string> {
  const res = await admin.json('/api/admin/assign-owner', {
    method: 'POST',
    body: JSON.stringify({ email, deviceId: DEVICE }),
  });
  expect(res.status).toBe(200);
  return res.body.token as string;
}

describe('a device changing hands', () => {
  let tokenOfB: string;

  it("hole 2: the previous owner's token stops working the moment the owner changes", async () => {
    tokenOfB = await assignTo(B);
    const config = await fetch(`${server.baseUrl}/api/device/v1/config`, {
      headers: { authorization: `Bearer ${tokenOfA}` },
    });
    expect(config.status).toBe(401);
    expect((await put(server, '/api/device/v1/sessions/GRATTAN/31082020/lap.six', tokenOfA, LAP_LINE)).status).toBe(
      401,
    );
    // The new token, shown once to whoever made the change, is the device's now.
    expect(
      (await fetch(`${server.baseUrl}/api/device/v1/config`, { headers: { authorization: `Bearer ${tokenOfB}` } }))
        .status,
    ).toBe(200);
  });

  it("hole 1: the new owner's upload to the same track and date is refused (409) and nothing of A's changes hands", async () => {
    const before = (await a.json(`${SESSION}/laps`)).body;
    const gpsBefore = await (await a.request(`${SESSION}/export/gps.six`)).text();
    for (const [file, body] of [
      ['lap.six', LAP_LINE],
      ['gps.six', GPS_LINE],
      ['gps.six', session.gpsSix],
    ] as const) {
      const res = await put(server, `/api/device/v1/sessions/GRATTAN/30082020/${file}`, tokenOfB, body);
      expect(res.status, `${file}`).toBe(409);
      expect(res.body).toMatchObject({
        code: 'session/previous-owner',
        message: expect.stringContaining('previous owner'),
      });
    }
    // The same bytes again are no "no-op" either: nothing of A's session comes back to B.
    expect(
      (await put(server, '/api/device/v1/sessions/GRATTAN/30082020/lap.six', tokenOfB, session.lapSix)).body.code,
    ).toBe('session/previous-owner');
    // A still owns and reads it, unchanged; B reads nothing of it, through any route.
    expect((await a.json(`${SESSION}/laps`)).body).toEqual(before);
    expect(await (await a.request(`${SESSION}/export/gps.six`)).text()).toBe(gpsBefore);
    for (const p of [
      'laps',
      'gps',
      'gps.bin',
      'summary',
      'analysis',
      'export/csv',
      'export/gpx',
      'export/lap.six',
      'export/gps.six',
    ]) {
      expect((await b.request(`${SESSION}/${p}`)).status, p).toBe(404);
    }
    expect((await b.json(`/api/devices/${DEVICE}/tracks`)).body.tracks).toEqual([]);
    expect((await b.json(`/api/storage/list?prefix=${DEVICE}/`)).body).toEqual({ prefixes: [], items: [] });
    expect((await b.json(`/api/storage/metadata?path=${DEVICE}/GRATTAN/30082020/gps.six`)).status).toBe(404);
    expect((await b.json('/api/sessions/latest')).body?.device).not.toBe(DEVICE);
  });

  it("the new owner's sessions on other dates are theirs alone; A never sees them, live or listed", async () => {
    const events = await a.request('/api/events');
    expect((await put(server, '/api/device/v1/sessions/GRATTAN/01092020/lap.six', tokenOfB, LAP_LINE)).status).toBe(
      200,
    );
    const seen = await readEvents(events, /01092020/, 800);
    expect(seen).not.toContain('01092020');
    expect((await b.json(`/api/devices/${DEVICE}/tracks/GRATTAN/dates`)).body.dates).toEqual(['01092020']);
    expect((await a.json(`/api/devices/${DEVICE}/tracks/GRATTAN/dates`)).body.dates).toEqual(['30082020']);
    expect((await a.json(`/api/devices/${DEVICE}/sessions/GRATTAN/01092020/laps`)).status).toBe(404);
  });

  it('a seller sale replaces the token too, and the new one is answered once', async () => {
    const seller = new Browser(server.baseUrl);
    await seller.signIn('loja@example.com');
    await server.database.db
      .updateTable('users')
      .set({ seller: '1' })
      .where('email', '=', 'loja@example.com')
      .execute();
    await server.database.db
      .updateTable('users')
      .set({ user_seller: 'loja@example.com' })
      .where('email', '=', 'buyer.c@example.com')
      .execute();
    const stockToken = await addDevice(server, '000000000998', 'company@voltas.local', 'loja@example.com');
    await put(server, '/api/device/v1/sessions/Loja/01092020/lap.six', stockToken, LAP_LINE);
    await new Browser(server.baseUrl).signIn('buyer.c@example.com');
    await server.database.db
      .updateTable('users')
      .set({ user_seller: 'loja@example.com' })
      .where('email', '=', 'buyer.c@example.com')
      .execute();
    const sold = await seller.json('/api/seller/assign', {
      method: 'POST',
      body: JSON.stringify({ buyer: 'buyer.c@example.com', deviceId: '000000000998' }),
    });
    expect(sold.status).toBe(200);
    expect(sold.body.token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect((await put(server, '/api/device/v1/sessions/Loja/02092020/lap.six', stockToken, LAP_LINE)).status).toBe(401);
    expect((await put(server, '/api/device/v1/sessions/Loja/02092020/lap.six', sold.body.token, LAP_LINE)).status).toBe(
      200,
    );
    // The shop's test session stays the company's.
    expect((await put(server, '/api/device/v1/sessions/Loja/01092020/lap.six', sold.body.token, LAP_LINE)).status).toBe(
      409,
    );
  });

  it("an owner revokes their device's token from 'Meus dados'; nobody else can", async () => {
    expect((await a.json(`/api/me/devices/${DEVICE}/token`, { method: 'DELETE', body: '{}' })).status).toBe(404); // A no longer owns it
    const me = await b.json('/api/me');
    // Its firmware and last contact ride along (issue 61); what matters here is the token.
    expect(me.body.ownedDevices).toEqual([expect.objectContaining({ id: DEVICE, hasToken: true })]);
    expect((await b.json(`/api/me/devices/${DEVICE}/token`, { method: 'DELETE', body: '{}' })).status).toBe(200);
    expect((await b.json('/api/me')).body.ownedDevices).toEqual([
      expect.objectContaining({ id: DEVICE, hasToken: false }),
    ]);
    expect(
      (await fetch(`${server.baseUrl}/api/device/v1/config`, { headers: { authorization: `Bearer ${tokenOfB}` } }))
        .status,
    ).toBe(401);
    const audit = await admin.json('/api/admin/audit');
    expect(
      audit.body.find((e: { action: string; target: string }) => e.action === 'revoke-token' && e.target === DEVICE)
        ?.actor,
    ).toBe(B);
  });

  it("a disabled owner's device can neither upload nor read the configuration", async () => {
    const token = await addDevice(server, '000000000997', 'soon.disabled@example.com');
    await setDisabled(server.database.db, 'soon.disabled@example.com', true);
    const config = await fetch(`${server.baseUrl}/api/device/v1/config`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(config.status).toBe(403);
    expect(((await config.json()) as Record<string, unknown>).code).toBe('auth/user-disabled');
    expect((await put(server, '/api/device/v1/sessions/Off/01092020/lap.six', token, LAP_LINE)).status).toBe(403);
    await setDisabled(server.database.db, 'soon.disabled@example.com', false);
    expect((await put(server, '/api/device/v1/sessions/Off/01092020/lap.six', token, LAP_LINE)).status).toBe(200);
  });
});

describe("hole 7: the demo device id is never anyone's", () => {
  it('register, assign owner, assign seller and token rotation refuse it', async () => {
    const attempts = [
      admin.json('/api/admin/devices', { method: 'POST', body: JSON.stringify({ id: '000000000001', owner: A }) }),
      admin.json('/api/admin/assign-owner', {
        method: 'POST',
        body: JSON.stringify({ email: A, deviceId: '000000000001' }),
      }),
      admin.json('/api/admin/assign-device-seller', {
        method: 'POST',
        body: JSON.stringify({ deviceId: '000000000001', seller: 'loja@example.com' }),
      }),
      admin.json('/api/admin/devices/000000000001/token', { method: 'POST', body: '{}' }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('device/reserved-id');
    }
  });
});

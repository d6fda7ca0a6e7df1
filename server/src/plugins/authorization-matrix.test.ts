import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessRule } from './policy';
import { addDevice, GPS_LINE, LAP_LINE, put } from '#test/fixtures.ts';
import { Browser, startTestServer, type TestServer } from '#test/test-server.ts';
import { setRoles } from '../modules/users/users.repository';
import { insertTrack } from '../modules/tracks/tracks.repository';
import { loadTracks } from '../lib/track-files';
import { catalogueStartFinish } from '#core/tracks/start-finish.ts';
import { parseGpsSix } from '#core/formats/gps-six.ts';
import { writeGpx } from '#core/imports/test-support/writers.ts';
import { generateSession } from '#core/sim/session-generator.ts';
import { randomBytes } from 'node:crypto';
import { generateFirmwareKey } from '../lib/firmware-signing';
import { releaseFirmware } from '#test/firmware-release.ts';

/**
 * Enumerates every route the app registered (app.accessRules, filled by the policy plugin) and
 * calls each as twelve identities (one a signed-out holder of a link rider A shared), asserting allow or deny against the policy. Deny is 401, 403
 * or 404 and never carries rider A's data. Three identities come from a device that changed
 * hands: its previous owner, its new owner, and the token it had before (stale).
 */
type Identity =
  | 'anonymous'
  | 'linkHolder'
  | 'riderA'
  | 'riderB'
  | 'sellerS'
  | 'sellerT'
  | 'admin'
  | 'deviceA'
  | 'deviceOther'
  | 'previousOwner'
  | 'newOwner'
  | 'deviceStale';
const IDENTITIES: Identity[] = [
  'anonymous',
  // Signed out, holding a link rider A shared (of A's imported session): it opens that, nothing else.
  'linkHolder',
  'riderA',
  'riderB',
  'sellerS',
  'sellerT',
  'admin',
  'deviceA',
  'deviceOther',
  'previousOwner',
  'newOwner',
  'deviceStale',
];
const SIGNED_IN: Identity[] = ['riderA', 'riderB', 'sellerS', 'sellerT', 'admin', 'previousOwner', 'newOwner'];
const A_DEVICE = '000000000010';
/** A's second device: the one whose token the revoke route may revoke. */
const A_SPARE_DEVICE = '000000000011';
/** Owned by previousOwner while they recorded a session on it, then given to newOwner. */
const SOLD_DEVICE = '000000000040';
// A's raw lap time and storage path: never in an answer to anyone but A, admins and A's device.
const A_MARKERS = ['0132456', `${A_DEVICE}/Interlagos`];
const MAY_SEE_A: Identity[] = ['riderA', 'admin', 'deviceA'];
// The previous owner's session on the sold device: theirs and admins' only, never the new owner's.
const PREVIOUS_MARKERS = [`${SOLD_DEVICE}/Monza`, '0201999'];
const MAY_SEE_PREVIOUS: Identity[] = ['previousOwner', 'admin'];
const PREVIOUS_LAP =
  '0201999|A|121.999|23456,1,0,0,23.456,1034|25001,0,0,0,25.001,1190|21999,0,0,0,21.999,1002|22000,0,0,0,22.000,1083|3|4309|5';

/** A track the admin routes act on. */
const TRACK_ID = 'bundled:Curitiba';
/** Rider A's imported session (set in beforeAll): its collection id is A's alone, not even an admin's. */
let IMPORTED = { device: '', track: '', date: '' };
/** The secret of a link rider A made to the imported session: every identity may open it, and it shows nothing of A's but the laps. */
let SHARE_TOKEN = '';
const MAY_SEE_IMPORTED: Identity[] = ['riderA'];
/** A video sync rider A keeps on each target: its file name carries A's marker, so a leak shows. */
const VIDEO_ID = '0b9e7a5e-4a57-4c2e-9d0e-3f7f5b0c0132';

/** A firmware image rolled out to every device, offered to device A only (it checked in; the other did not). */
const FIRMWARE_KEY = generateFirmwareKey();
let FIRMWARE_ID = '';
let ROLLOUT_ID = '';

let server: TestServer;
const browsers = new Map<Identity, Browser>();
const tokens: Partial<Record<Identity, string>> = {};

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: 'admin@example.com', FIRMWARE_PUBLIC_KEYS: FIRMWARE_KEY.publicKey });
  tokens.deviceA = await addDevice(server, A_DEVICE, 'a@example.com');
  tokens.deviceOther = await addDevice(server, '000000000020', 'b@example.com');
  await addDevice(server, '000000000030', 'company@voltas.local', 's@example.com');
  await put(server, '/api/device/v1/sessions/Interlagos/01112026/lap.six', tokens.deviceA, LAP_LINE);
  await put(server, '/api/device/v1/sessions/Interlagos/01112026/gps.six', tokens.deviceA, GPS_LINE);
  for (const [id, email] of [
    ['riderA', 'a@example.com'],
    ['riderB', 'b@example.com'],
    ['sellerS', 's@example.com'],
    ['sellerT', 't@example.com'],
    ['admin', 'admin@example.com'],
  ] as const) {
    const b = new Browser(server.baseUrl);
    await b.signIn(email);
    browsers.set(id, b);
  }
  await setRoles(server.database.db, 's@example.com', { adm: '', seller: '1' });
  await setRoles(server.database.db, 't@example.com', { adm: '', seller: '1' });
  await addDevice(server, A_SPARE_DEVICE, 'a@example.com');
  // The sold device: a session recorded by its previous owner, then an admin gives it to the new owner.
  tokens.deviceStale = await addDevice(server, SOLD_DEVICE, 'prev@example.com');
  await put(server, '/api/device/v1/sessions/Monza/02112026/lap.six', tokens.deviceStale, PREVIOUS_LAP);
  await put(server, '/api/device/v1/sessions/Monza/02112026/gps.six', tokens.deviceStale, GPS_LINE);
  for (const [id, email] of [
    ['previousOwner', 'prev@example.com'],
    ['newOwner', 'new@example.com'],
  ] as const) {
    const b = new Browser(server.baseUrl);
    await b.signIn(email);
    browsers.set(id, b);
  }
  const handover = await browsers.get('admin')!.json('/api/admin/assign-owner', {
    method: 'POST',
    body: JSON.stringify({ email: 'new@example.com', deviceId: SOLD_DEVICE }),
  });
  expect(handover.body.token).toBeTruthy();
  const curitiba = loadTracks().find((t) => t.name === 'Curitiba')!;
  const now = new Date().toISOString();
  await insertTrack(server.database.db, {
    id: TRACK_ID,
    name: 'Curitiba',
    source: 'bundled',
    outline_id: 'Curitiba',
    gate: JSON.stringify(catalogueStartFinish(curitiba.points, curitiba.startFinish!, true)),
    south: -25.46,
    west: -49.21,
    north: -25.44,
    east: -49.19,
    created_at: now,
    updated_at: now,
  });
});
afterAll(async () => {
  await server.close();
});

beforeAll(async () => {
  const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;
  const gen = generateSession(interlagos, { seed: 3, heats: 1, lapsPerHeat: [3, 3], gpsNoise: 0.2 });
  const res = await browsers.get('riderA')!.request('/api/imports?filename=a.gpx', {
    method: 'POST',
    headers: { origin: server.baseUrl, 'content-type': 'application/gpx+xml' },
    body: writeGpx(parseGpsSix(gen.gpsSix).value, { y: 2026, m: 11, d: 7 }),
  });
  expect(res.status).toBe(201);
  IMPORTED = ((await res.json()) as { session: typeof IMPORTED }).session;
  const share = await browsers
    .get('riderA')!
    .json('/api/shares', { method: 'POST', body: JSON.stringify({ ...IMPORTED, lap: 'A1' }) });
  expect(share.status).toBe(201);
  SHARE_TOKEN = new URL((share.body as { url: string }).url).pathname.split('/').pop()!;
  // A's own video syncs of both A sessions, named with A's marker: nobody else's answer may hold them.
  for (const s of [{ device: A_DEVICE, track: 'Interlagos', date: '01112026' }, IMPORTED]) {
    const stored = await browsers
      .get('riderA')!
      .json(`/api/devices/${s.device}/sessions/${encodeURIComponent(s.track)}/${s.date}/videos/${VIDEO_ID}`, {
        method: 'PUT',
        body: JSON.stringify({
          id: VIDEO_ID,
          name: 'GX010132456.MP4',
          size: 4_000_000_000,
          fingerprint: 'a'.repeat(64),
          offsetMs: 1.7e12,
          driftPpm: 0,
          method: 'gpmf',
          errorMs: 20,
        }),
      });
    expect(stored.status).toBe(200);
  }
  // The link holder opened the link's page first, as a friend does: it gives no cookie.
  const holder = new Browser(server.baseUrl);
  expect((await holder.request(`/v/${SHARE_TOKEN}`)).status).toBe(200);
  expect(holder.cookies.size).toBe(0);
  browsers.set('linkHolder', holder);

  ({ firmwareId: FIRMWARE_ID, rolloutId: ROLLOUT_ID } = await releaseFirmware(
    browsers.get('admin')!,
    FIRMWARE_KEY,
    randomBytes(4096),
  ));
  const checkIn = await fetch(`${server.baseUrl}/api/device/v1/check-in`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens.deviceA}`, 'content-type': 'application/json' },
    body: JSON.stringify({ firmware: { version: '1.0.0' }, hardware: { class: 'vt1' } }),
  });
  expect(((await checkIn.json()) as { update: { rolloutId: string } }).update.rolloutId).toBe(ROLLOUT_ID);
});

/** Which session a device route is called on: rider A's, the previous owner's on the sold device, or one rider A imported. */
type Target = 'A' | 'sold' | 'imported';

const isDeleteSession = (rule: AccessRule) =>
  rule.method === 'DELETE' && rule.url === '/api/devices/:id/sessions/:track/:date';

/** Routes about one device's sessions and files, called on both targets. */
const isSessionRoute = (rule: AccessRule) =>
  rule.url.startsWith('/api/devices/:id') || rule.url === '/api/storage/metadata';

function expected(rule: AccessRule, who: Identity, target: Target): 'allow' | 'deny' {
  switch (rule.access) {
    case 'public':
      return 'allow';
    case 'rider':
      if (!SIGNED_IN.includes(who)) return 'deny';
      // Rider A's device, sessions and stored files: A and admins only. The sold device's old
      // session: its previous owner and admins, never the new owner.
      if (isSessionRoute(rule)) {
        // An imported session is its importer's alone; a device session is never deleted through the API.
        if (target === 'imported') return who === 'riderA' ? 'allow' : 'deny';
        if (isDeleteSession(rule)) return 'deny';
        // The new owner may list the device they own now (empty: nothing of the previous owner's).
        if (target === 'sold' && who === 'newOwner' && /^\/api\/devices\/:id\/tracks/.test(rule.url)) return 'allow';
        return who === 'admin' || who === (target === 'A' ? 'riderA' : 'previousOwner') ? 'allow' : 'deny';
      }
      if (rule.url === '/api/me/devices/:id/token') return who === 'riderA' ? 'allow' : 'deny';
      return 'allow';
    case 'seller':
      return who === 'sellerS' || who === 'sellerT' ? 'allow' : 'deny';
    case 'admin':
      return who === 'admin' ? 'allow' : 'deny';
    case 'metrics':
      return 'deny'; // operators only (METRICS_TOKEN): no rider, admin or device
    case 'device':
      // An image is fetched only through the device's own offer (device A checked in; the other did not).
      if (rule.url.startsWith('/api/device/v1/firmware/')) return who === 'deviceA' ? 'allow' : 'deny';
      // deviceStale's token was revoked when the device changed hands: denied everywhere.
      if (rule.url.includes('/devices/:id/')) return who === 'deviceA' ? 'allow' : 'deny';
      return who === 'deviceA' || who === 'deviceOther' ? 'allow' : 'deny';
  }
}

function concretePath(rule: AccessRule, target: Target): string {
  const id = rule.url.startsWith('/api/admin/devices/:id')
    ? '000000000030'
    : /^\/api\/(admin\/rollouts|device\/v1\/firmware)\/:id/.test(rule.url)
      ? ROLLOUT_ID
      : rule.url.startsWith('/api/admin/firmware/:id')
        ? FIRMWARE_ID
        : rule.url === '/api/me/devices/:id/token'
          ? A_SPARE_DEVICE
          : target === 'sold'
            ? SOLD_DEVICE
            : A_DEVICE;
  if (target === 'imported') {
    const path = rule.url
      .replace(':id', IMPORTED.device)
      .replace(':track', encodeURIComponent(IMPORTED.track))
      .replace(':date', IMPORTED.date)
      .replace(':format', 'csv')
      .replace(':videoId', VIDEO_ID);
    return path === '/api/storage/metadata'
      ? `${path}?path=${IMPORTED.device}/${IMPORTED.track}/${IMPORTED.date}/gps.six`
      : path;
  }
  if (target === 'sold') {
    let path = rule.url
      .replace(':id', id)
      .replace(':track', 'Monza')
      .replace(':date', '02112026')
      .replace(':format', 'lap.six')
      .replace(':videoId', VIDEO_ID);
    if (path === '/api/storage/metadata') path += `?path=${SOLD_DEVICE}/Monza/02112026/lap.six`;
    return path;
  }
  let path = rule.url
    .replace(':trackId', encodeURIComponent(TRACK_ID))
    .replace(':id', id)
    .replace(':track', 'Interlagos')
    .replace(':date', '01112026')
    .replace(':format', 'csv')
    .replace(':videoId', VIDEO_ID)
    .replace(':email', 'a%40example.com')
    .replace(':uid', 'x')
    .replace(':token', SHARE_TOKEN)
    .replace('*', 'x');
  if (path === '/api/storage/metadata') path += `?path=${A_DEVICE}/Interlagos/01112026/lap.six`;
  if (path === '/api/storage/list') path += `?prefix=${A_DEVICE}/Interlagos/01112026/`;
  return path;
}

async function call(rule: AccessRule, who: Identity, target: Target): Promise<{ status: number; text: string }> {
  const path = concretePath(rule, target);
  const isDevice = rule.access === 'device' || who === 'deviceA' || who === 'deviceOther' || who === 'deviceStale';
  const headers: Record<string, string> = { origin: server.baseUrl };
  const token = tokens[who];
  if (token) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (rule.method !== 'GET') {
    // Empty bodies: an allowed caller gets a validation error, never a side effect.
    headers['content-type'] = isDevice && rule.method === 'PUT' ? 'text/plain' : 'application/json';
    body = headers['content-type'] === 'text/plain' ? '' : '{}';
  }
  const browser = browsers.get(who) ?? new Browser(server.baseUrl);
  const res = await browser.request(path, { method: rule.method, headers, body });
  // An event stream never ends: its status says enough (events are filtered per viewer elsewhere).
  if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
    await res.body?.cancel();
    return { status: res.status, text: '' };
  }
  return { status: res.status, text: await res.text() };
}

describe('authorization matrix', () => {
  it('covers every registered route, each with an access rule', async () => {
    const api = server.app.accessRules.filter((r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs'));
    expect(api.length).toBeGreaterThan(25);
    for (const r of api) expect(['public', 'rider', 'seller', 'admin', 'device', 'metrics']).toContain(r.access);
  });

  it('declares the rule each part of the API must have', () => {
    // Independent of the declarations: a route loosened by mistake fails here.
    const mustBe: [RegExp, AccessRule['access']][] = [
      [/^\/api\/admin\//, 'admin'],
      [/^\/api\/seller\//, 'seller'],
      [/^\/api\/device\/v1\//, 'device'],
      [/^\/api\/(me|devices|storage|sessions|events|tracks|imports|shares)(\/|$)/, 'rider'],
      [/^\/api\/(auth|health|shared)(\/|$)/, 'public'],
    ];
    const api = server.app.accessRules.filter((r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs'));
    for (const r of api) {
      const rule = mustBe.find(([re]) => re.test(r.url));
      expect(rule, `${r.url} belongs to no known part of the API`).toBeDefined();
      expect(`${r.method} ${r.url}: ${r.access}`).toBe(`${r.method} ${r.url}: ${rule![1]}`);
    }
  });

  it("a track derived from rider A's traces: A and admins rename it, nobody else sees it; only admins share it", async () => {
    const now = new Date().toISOString();
    const id = 'derived:a-own';
    await insertTrack(server.database.db, {
      id,
      name: 'Pista do A',
      source: 'derived',
      gate: JSON.stringify({ a: { lat: 0.0001, lon: 0 }, b: { lat: -0.0001, lon: 0 } }),
      line: JSON.stringify([
        [0, 0],
        [0, 0.001],
        [0.001, 0.001],
        [0.001, 0],
        [0, 0],
      ]),
      south: 0,
      west: 0,
      north: 0.001,
      east: 0.001,
      created_by: 'a@example.com',
      shared: 0,
      created_at: now,
      updated_at: now,
    });
    const failures: string[] = [];
    for (const who of IDENTITIES) {
      const browser = browsers.get(who) ?? new Browser(server.baseUrl);
      const headers = {
        origin: server.baseUrl,
        'content-type': 'application/json',
        ...(tokens[who] ? { authorization: `Bearer ${tokens[who]}` } : {}),
      };
      const renamed = await browser.request(`/api/tracks/${encodeURIComponent(id)}/name`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ name: `Nome ${who}` }),
      });
      const wantRename = who === 'riderA' || who === 'admin' ? 200 : SIGNED_IN.includes(who) ? 404 : 401;
      if (renamed.status !== wantRename) failures.push(`rename as ${who}: want ${wantRename}, got ${renamed.status}`);
      if (renamed.status !== 200 && (await renamed.text()).includes('Pista do A'))
        failures.push(`rename as ${who} leaked the track's name`);
      const shared = await browser.request(`/api/admin/tracks/${encodeURIComponent(id)}/shared`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ shared: false }),
      });
      const wantShare = who === 'admin' ? 200 : SIGNED_IN.includes(who) ? 403 : 401;
      if (shared.status !== wantShare) failures.push(`share as ${who}: want ${wantShare}, got ${shared.status}`);
    }
    expect(failures).toEqual([]);
  });

  it("rider A's language and units: A's own; every other signed-in identity reads its own, the rest 401", async () => {
    const riderA = browsers.get('riderA')!;
    expect(
      (
        await riderA.json('/api/me/preferences', {
          method: 'PUT',
          body: JSON.stringify({ language: 'es', units: 'imperial' }),
        })
      ).status,
    ).toBe(200);
    const failures: string[] = [];
    for (const who of IDENTITIES) {
      const browser = browsers.get(who) ?? new Browser(server.baseUrl);
      const headers = {
        origin: server.baseUrl,
        'accept-language': 'pt-BR',
        ...(tokens[who] ? { authorization: `Bearer ${tokens[who]}` } : {}),
      };
      const res = await browser.request('/api/me/preferences', { headers });
      const body = res.status === 200 ? ((await res.json()) as { language: string; chosen: boolean }) : null;
      const want = who === 'riderA' ? 'es/true' : SIGNED_IN.includes(who) ? 'pt-BR/false' : '401';
      const got = body ? `${body.language}/${String(body.chosen)}` : String(res.status);
      if (got !== want) failures.push(`GET /api/me/preferences as ${who}: want ${want}, got ${got}`);
    }
    expect(failures).toEqual([]);
  });

  it('each identity gets exactly what the policy says', async () => {
    const rules = server.app.accessRules
      .filter((r) => ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'].includes(r.method) && !r.url.startsWith('/api/docs'))
      // Deleting the imported session, then logout (it ends the caller's session), run last.
      .sort(
        (a, b) =>
          Number(a.url === '/api/auth/logout') * 2 +
          Number(isDeleteSession(a)) -
          (Number(b.url === '/api/auth/logout') * 2 + Number(isDeleteSession(b))),
      );
    const failures: string[] = [];
    const calls = rules.flatMap((rule) =>
      (isSessionRoute(rule) ? (['A', 'sold', 'imported'] as const) : (['A'] as const)).map((target) => ({
        rule,
        target,
      })),
    );
    for (const { rule, target } of calls) {
      for (const who of IDENTITIES) {
        const want = expected(rule, who, target);
        const { status, text } = await call(rule, who, target);
        const denied = status === 401 || status === 403 || status === 404;
        const label = `${rule.method} ${rule.url} (${target}) as ${who}: want ${want}, got ${status}`;
        if (!MAY_SEE_A.includes(who) && A_MARKERS.some((m) => text.includes(m)))
          failures.push(`${label} (leaked A's data)`);
        if (!MAY_SEE_PREVIOUS.includes(who) && PREVIOUS_MARKERS.some((m) => text.includes(m)))
          failures.push(`${label} (leaked the previous owner's data)`);
        if (!MAY_SEE_IMPORTED.includes(who) && text.includes(IMPORTED.device))
          failures.push(`${label} (leaked A's import collection)`);
        if (want === 'deny') {
          if (!denied) failures.push(label);
        } else if (
          rule.access !== 'public' &&
          (status === 401 || status === 403 || (status === 404 && rule.url.startsWith('/api/')))
        ) {
          failures.push(label);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 60_000); // every route as every identity: hundreds of requests, slow beside the browser tests on a busy machine
});

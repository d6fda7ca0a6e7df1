import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompareResponse } from '#core/contracts/progress.contract.ts';
import type { SharedLap, SharedView } from '#core/contracts/shares.contract.ts';
import { formatLapTime } from '#core/formats/lap-six.ts';
import { generateSession } from '#core/sim/session-generator.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { addDevice, put } from '#test/fixtures.ts';
import { onPostgres } from '#test/test-database.ts';
import { Browser, sameDatabase, startTestServer, type TestServer } from '#test/test-server.ts';

// Share links through the API: made by the rider, opened signed out, nothing else of theirs shown,
// revoked (at once, on another instance too), expiring, previewed by messaging apps, and a friend
// laying the shared lap over their own.

let server: TestServer;
let ana: Browser;
let bia: Browser;
const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;
const ANA_DEVICE = '000000000081';
const BIA_DEVICE = '000000000082';
const ANA_WIFI = 'RedeDaAna-Secreta-7781';

beforeAll(async () => {
  server = await startTestServer({}, { inject: true });
  const anaToken = await addDevice(server, ANA_DEVICE, 'ana@example.com');
  const ana1 = generateSession(interlagos, { seed: 51, heats: 2, lapsPerHeat: [4, 4], gpsNoise: 0.2, skill: 0.95 });
  await put(server, `/api/device/v1/sessions/Interlagos/14112026/lap.six`, anaToken, ana1.lapSix);
  await put(server, `/api/device/v1/sessions/Interlagos/14112026/gps.six`, anaToken, ana1.gpsSix);
  // Another session of Ana's, never shared: the link must not reach it.
  await put(server, `/api/device/v1/sessions/Interlagos/01112026/lap.six`, anaToken, ana1.lapSix);
  const biaToken = await addDevice(server, BIA_DEVICE, 'bia@example.com');
  const bia1 = generateSession(interlagos, { seed: 52, heats: 1, lapsPerHeat: [4, 4], gpsNoise: 0.2, skill: 0.9 });
  await put(server, `/api/device/v1/sessions/Interlagos/10112026/lap.six`, biaToken, bia1.lapSix);
  await put(server, `/api/device/v1/sessions/Interlagos/10112026/gps.six`, biaToken, bia1.gpsSix);
  ana = new Browser(server);
  await ana.signIn('ana@example.com', 'Ana Piloto');
  // Her Wi-Fi, set as riders do: it must never show through a link.
  const wifi = await ana.request('/api/me/profile', {
    method: 'PUT',
    headers: { 'content-type': 'application/json', origin: server.baseUrl },
    body: JSON.stringify({ wifi: ANA_WIFI, senha: 'senha-muito-secreta', nomePiloto: 'Ana Piloto', numeroMoto: '77' }),
  });
  expect(wifi.status).toBe(200);
  bia = new Browser(server);
  await bia.signIn('bia@example.com');
});
afterAll(async () => {
  await server.close();
});

const post = (b: Browser, body: unknown) =>
  b.request('/api/shares', {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.baseUrl },
    body: JSON.stringify(body),
  });
const tokenOf = (url: string) => new URL(url).pathname.split('/').pop()!;
const session = { device: ANA_DEVICE, track: 'Interlagos', date: '14112026' };

describe('share links', () => {
  let lapLink: { id: string; url: string };
  let sessionLink: { id: string; url: string };

  it('a rider makes a link to a lap and to a session; the list gives her the links again, the database only sealed', async () => {
    const lap = await post(ana, { ...session, lap: 'A2', name: '  Volta dois, a boa  ' });
    expect(lap.status).toBe(201);
    lapLink = (await lap.json()) as typeof lapLink;
    expect(lapLink.url).toMatch(new RegExp(`^${server.config.publicUrl}/v/[A-Za-z0-9_-]{43}$`));
    const whole = await post(ana, session);
    sessionLink = (await whole.json()) as typeof sessionLink;
    const list = (await (await ana.request('/api/shares')).json()) as {
      shares: { id: string; lap: string | null; name: string | null; url: string | null }[];
    };
    expect(list.shares.map((s) => [s.id, s.lap, s.name, s.url])).toEqual([
      [sessionLink.id, null, null, sessionLink.url],
      [lapLink.id, 'A2', 'Volta dois, a boa', lapLink.url],
    ]);
    // The secret is stored hashed (to find the link) and sealed with SECRET_KEY (to copy it again), never in plain.
    const rows = await server.database.db.selectFrom('shares').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(tokenOf(lapLink.url));
    expect(rows.every((r) => r.sealed_token?.startsWith('v2:'))).toBe(true);
    // A sealed secret moved onto another link's row does not open there.
    await server.database.db
      .updateTable('shares')
      .set({ sealed_token: rows.find((r) => r.id === lapLink.id)!.sealed_token })
      .where('id', '=', sessionLink.id)
      .execute();
    const moved = (await (await ana.request('/api/shares')).json()) as { shares: { id: string; url: string | null }[] };
    expect(moved.shares.find((s) => s.id === sessionLink.id)!.url).toBeNull();
    await server.database.db
      .updateTable('shares')
      .set({ sealed_token: rows.find((r) => r.id === sessionLink.id)!.sealed_token })
      .where('id', '=', sessionLink.id)
      .execute();
    // Bia neither sees nor shares Ana's.
    expect(((await (await bia.request('/api/shares')).json()) as { shares: unknown[] }).shares).toEqual([]);
    expect((await post(bia, session)).status).toBe(404);
    expect((await post(ana, { ...session, lap: 'A77' })).status).toBe(404);
    expect((await post(ana, { ...session, expiresInDays: 0 })).status).toBe(400);
    expect((await post(ana, { ...session, date: '01112026' })).status).toBe(404); // no GPS trace: nothing to show
  });

  it('refuses malformed, oversized and hostile link requests with a clear 4xx, and makes no link', async () => {
    const before = (await server.database.db.selectFrom('shares').selectAll().execute()).length;
    const send = (body: string, type = 'application/json') =>
      ana.request('/api/shares', { method: 'POST', headers: { 'content-type': type, origin: server.baseUrl }, body });
    // A track name no session has: not found, whatever it holds.
    expect((await send(JSON.stringify({ ...session, track: '../Interlagos' }))).status).toBe(404);
    for (const body of [
      '{',
      '[]',
      JSON.stringify({ ...session, device: '../../etc' }),
      JSON.stringify({ ...session, date: '2026-11-14' }),
      JSON.stringify({ ...session, lap: "A1' or 1=1 --" }),
      JSON.stringify({ ...session, lap: 'A'.repeat(10_000) }),
      JSON.stringify({ ...session, expiresInDays: 366 }),
      JSON.stringify({ ...session, expiresInDays: 'sempre' }),
    ]) {
      const res = await send(body);
      expect(res.status, body.slice(0, 40)).toBe(400);
      expect(((await res.json()) as { mensagem?: string }).mensagem).toBeTruthy();
    }
    expect((await send(JSON.stringify(session), 'text/plain')).status).toBe(400);
    expect((await send(JSON.stringify({ ...session, pad: 'x'.repeat(2 * 1024 * 1024) }))).status).toBe(413);
    // From another site's page, a cookie-authenticated change is refused (CSRF).
    const foreign = { 'content-type': 'application/json', origin: 'https://outro.example' };
    expect(
      (await ana.request('/api/shares', { method: 'POST', headers: foreign, body: JSON.stringify(session) })).status,
    ).toBe(403);
    expect((await server.database.db.selectFrom('shares').selectAll().execute()).length).toBe(before);
  });

  it('opens signed out: the session’s laps and figures, no cookie, nothing cached, and nothing else of the rider’s (field by field)', async () => {
    const stranger = new Browser(server);
    const res = await stranger.request(`/api/shared/${tokenOf(sessionLink.url)}`);
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const view = (await res.json()) as SharedView;
    expect(Object.keys(view).sort()).toEqual(
      [
        'bestLapSeconds',
        'bestSectorSeconds',
        'consistencyMs',
        'corners',
        'date',
        'idealLapSeconds',
        'lap',
        'laps',
        'lengthM',
        'name',
        'topSpeedKmh',
        'track',
      ].sort(),
    );
    expect(view).toMatchObject({ track: 'Interlagos', date: '14112026', lap: null });
    for (const lap of view.laps)
      expect(Object.keys(lap).sort()).toEqual([
        'best',
        'complete',
        'heat',
        'kind',
        'number',
        'seconds',
        'sectorSeconds',
        'topKmh',
      ]);
    // The sectors and the top speed, for a friend who is not signed in (issue 60).
    const flying = view.laps.filter((l) => l.kind === 'flying');
    expect(view.bestSectorSeconds.length).toBeGreaterThanOrEqual(2);
    for (const l of flying) {
      expect(l.sectorSeconds).toHaveLength(view.bestSectorSeconds.length);
      expect(l.sectorSeconds.reduce((a, b) => a + b, 0)).toBeCloseTo(l.seconds!, 0);
    }
    view.bestSectorSeconds.forEach((best, k) => expect(best).toBe(Math.min(...flying.map((l) => l.sectorSeconds[k]!))));
    expect(view.topSpeedKmh).toBe(Math.max(...view.laps.flatMap((l) => (l.topKmh === null ? [] : [l.topKmh]))));
    expect(view.topSpeedKmh).toBeGreaterThan(150);
    expect(view.name).toBeNull();
    for (const corner of view.corners)
      expect(Object.keys(corner).sort()).toEqual(['apex', 'apexM', 'direction', 'endM', 'number', 'startM']);
    expect(view.laps.filter((l) => l.best)).toHaveLength(1);
    const text = JSON.stringify(view);
    for (const secret of ['ana@example.com', 'Ana Piloto', ANA_DEVICE, ANA_WIFI, 'senha', '01112026', BIA_DEVICE])
      expect(text).not.toContain(secret);
    // One lap of it, on the track's grid, with its path.
    const lap = (await (
      await stranger.request(`/api/shared/${tokenOf(sessionLink.url)}/lap?lap=B2`)
    ).json()) as SharedLap;
    expect(Object.keys(lap).sort()).toEqual(['heat', 'lean', 'number', 'path', 'seconds', 'speed', 'x']);
    expect(lap).toMatchObject({ heat: 'B', number: 2 });
    expect(lap.path.length).toBeGreaterThan(50);
    // A signed-in reader gets no cookie either (not even a renewed sign-in).
    const signedIn = await bia.request(`/api/shared/${tokenOf(sessionLink.url)}`);
    expect(signedIn.headers.getSetCookie()).toEqual([]);
  });

  it('one truth: the link shows each lap with the time the laps screen shows (the device’s), the best lap included', async () => {
    const view = (await (
      await server.fetch(`${server.baseUrl}/api/shared/${tokenOf(sessionLink.url)}`)
    ).json()) as SharedView;
    const laps = (await (await ana.request(`/api/devices/${ANA_DEVICE}/sessions/Interlagos/14112026/laps`)).json()) as {
      laps: { heat: string; lapCount: number; lapSeconds: number; isBest: boolean }[];
    };
    const device = new Map(laps.laps.map((l) => [`${l.heat}${l.lapCount}`, l.lapSeconds]));
    const timed = view.laps.filter((l) => l.seconds !== null);
    expect(timed.length).toBeGreaterThan(5);
    for (const l of timed) expect(l.seconds, `${l.heat}${l.number}`).toBe(device.get(`${l.heat}${l.number}`));
    const best = laps.laps.find((l) => l.isBest)!;
    expect(view.bestLapSeconds).toBe(best.lapSeconds);
    expect(view.laps.find((l) => l.best)).toMatchObject({ heat: best.heat, number: best.lapCount });
  });

  it('a lap’s link shows that lap only, under the name its rider gave it', async () => {
    const t = tokenOf(lapLink.url);
    const view = (await (await server.fetch(`${server.baseUrl}/api/shared/${t}`)).json()) as SharedView;
    expect(view.lap).toBe('A2');
    expect(view.name).toBe('Volta dois, a boa');
    expect(view.topSpeedKmh).toBe(view.laps[0]!.topKmh);
    const page = await (await server.fetch(`${server.baseUrl}/v/${t}`)).text();
    expect(page).toContain('<p class="share-name" data-testid="shared-name">Volta dois, a boa</p>');
    expect(view.laps.map((l) => `${l.heat}${l.number}`)).toEqual(['A2']);
    expect(view.idealLapSeconds).toBeNull();
    expect((await server.fetch(`${server.baseUrl}/api/shared/${t}/lap`)).status).toBe(200);
    expect((await server.fetch(`${server.baseUrl}/api/shared/${t}/lap?lap=A3`)).status).toBe(404);
  });

  it('a link preview for messaging apps: title, description and a PNG of the track with the lap time', async () => {
    const t = tokenOf(sessionLink.url);
    const page = await server.fetch(`${server.baseUrl}/v/${t}`);
    expect(page.status).toBe(200);
    expect(page.headers.getSetCookie()).toEqual([]);
    const html = await page.text();
    expect(html).toContain('<meta property="og:title" content="Interlagos · 14/11/2026">');
    expect(html).toMatch(/<meta property="og:description" content="Melhor volta: \d\d:\d\d\.\d{3}">/);
    expect(html).toContain(
      `<meta property="og:image" content="${server.config.publicUrl}/api/shared/${t}/preview.png">`,
    );
    const png = await server.fetch(`${server.baseUrl}/api/shared/${t}/preview.png`);
    expect(png.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await png.arrayBuffer());
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([1200, 630]);
    // An unknown link: the page still loads (it says the link does not work), as a 404, with no preview.
    const gone = await server.fetch(`${server.baseUrl}/v/${'x'.repeat(43)}`);
    expect(gone.status).toBe(404);
    expect(await gone.text()).not.toContain('og:title');
  });

  it('the page a link opens is its first screen, written by the server from the same view, in the visitor’s language', async () => {
    const t = tokenOf(sessionLink.url);
    const view = (await (await server.fetch(`${server.baseUrl}/api/shared/${t}`)).json()) as SharedView;
    const res = await server.fetch(`${server.baseUrl}/v/${t}`, { headers: { 'accept-language': 'en-US,en;q=0.9' } });
    expect(res.headers.get('vary')).toContain('accept-language');
    const html = await res.text();
    expect(html).toContain('<html lang="en">');
    // Signed out: the app waits for the visitor's first click, and sign-in is offered.
    expect(html).toMatch(/<div id="root" data-page="shared" data-app="[^"]*">/);
    expect(html).toContain('<a href="/login">Sign in to compare with your own laps at this track.</a>');
    const cells = [
      ...html.matchAll(
        /<tr class="lap-row[^"]*"><td>(?:<button[^>]*>)?(\w+)(?:<\/button>)?<\/td><td class="time"><span class="lap-time">([^<]+)</g,
      ),
    ];
    expect(cells.map((c) => c[1])).toEqual(view.laps.map((l) => `${l.heat}${l.number}`));
    expect(cells.map((c) => c[2])).toEqual(
      view.laps.map((l) => (l.seconds === null ? '—' : formatLapTime(l.seconds * 1000))),
    );
    expect(html).toContain(`<dd data-testid="shared-best">${formatLapTime(view.bestLapSeconds! * 1000)}</dd>`);
    // The top speed in the visitor's language and units (en-US: mph, a decimal point).
    expect(html).toContain(`<dd data-testid="shared-top-speed">${(view.topSpeedKmh! / 1.609344).toFixed(1)} mph</dd>`);
    expect(html).toContain('<th scope="col">S1</th>');
    expect(html.match(/class="time sector-best"/g)).toHaveLength(view.bestSectorSeconds.length);
    expect(html).toContain('aria-label="See lap A1 on the charts"');
    // The same view, for the app to start from when it comes.
    const data = /<script type="application\/json" id="shared-view" data-token="[^"]+">(.*?)<\/script>/.exec(html)!;
    expect(JSON.parse(data[1]!)).toEqual(view);

    // A signed-in visitor (their own laps to compare) and a lap's link (its charts) get the app at once.
    const signedIn = await (await bia.request(`/v/${t}`)).text();
    expect(signedIn).toContain('data-start="now"');
    expect(signedIn).not.toContain('href="/login"');
    const lapPage = await (await server.fetch(`${server.baseUrl}/v/${tokenOf(lapLink.url)}`)).text();
    expect(lapPage).toContain('data-start="now"');
    // The invitation comes from the app, below the lap's charts (else it moves as they arrive).
    expect(lapPage).not.toContain('href="/login"');

    const gone = await (
      await server.fetch(`${server.baseUrl}/v/${'x'.repeat(43)}`, { headers: { 'accept-language': 'es' } })
    ).text();
    expect(gone).toContain('<html lang="es">');
    expect(gone).toContain('data-testid="shared-gone"');
    expect(gone).not.toContain('data-start');
    expect(gone).not.toContain('id="shared-view"');
  });

  it('a signed-in friend lays the shared lap over their own laps there ("comparar com minhas voltas")', async () => {
    const t = tokenOf(lapLink.url);
    const res = await bia.request(
      `/api/sessions/compare?device=${BIA_DEVICE}&track=Interlagos&date=10112026&lap=A2&reference=share&share=${t}`,
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as CompareResponse;
    expect(body.reference).toMatchObject({ device: null, shared: true, heat: 'A', number: 2, date: '14112026' });
    expect(JSON.stringify(body)).not.toContain(ANA_DEVICE);
    expect(body.x.length).toBeGreaterThan(500);
    // Only the lap the link shares.
    expect(
      (
        await bia.request(
          `/api/sessions/compare?device=${BIA_DEVICE}&track=Interlagos&date=10112026&lap=A2&reference=share&share=${t}&refLap=A3`,
        )
      ).status,
    ).toBe(404);
    // A session's link: any of its laps, the best by default.
    const whole = await bia.request(
      `/api/sessions/compare?device=${BIA_DEVICE}&track=Interlagos&date=10112026&lap=A2&reference=share&share=${tokenOf(sessionLink.url)}`,
    );
    expect(whole.status).toBe(200);
  });

  it('altered, expired and revoked links answer 404; only the rider revokes theirs', async () => {
    const t = tokenOf(lapLink.url);
    const altered = `${t.slice(0, -1)}${t.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [altered, t.slice(0, 20), `${t}x`])
      expect((await server.fetch(`${server.baseUrl}/api/shared/${bad}`)).status, bad).toBe(404);
    // A NUL character is refused as in any text (plugins/text-input.ts).
    expect((await server.fetch(`${server.baseUrl}/api/shared/%00`)).status).toBe(400);
    // Expiry: a link made for one day, a day later.
    const expiring = (await (await post(ana, { ...session, expiresInDays: 1 })).json()) as {
      id: string;
      url: string;
      expiresAt: string;
    };
    expect(Date.parse(expiring.expiresAt) - Date.now()).toBeGreaterThan(86_000_000);
    expect((await server.fetch(`${server.baseUrl}/api/shared/${tokenOf(expiring.url)}`)).status).toBe(200);
    await server.database.db
      .updateTable('shares')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', expiring.id)
      .execute();
    expect((await server.fetch(`${server.baseUrl}/api/shared/${tokenOf(expiring.url)}`)).status).toBe(404);
    // A disabled rider's links open nothing; enabled again, they do.
    const disable = (on: number) =>
      server.database.db.updateTable('users').set({ disabled: on }).where('email', '=', 'ana@example.com').execute();
    await disable(1);
    expect((await server.fetch(`${server.baseUrl}/api/shared/${t}`)).status).toBe(404);
    await disable(0);
    expect((await server.fetch(`${server.baseUrl}/api/shared/${t}`)).status).toBe(200);
    // Bia cannot revoke Ana's link.
    const del = (b: Browser, id: string) =>
      b.request(`/api/shares/${id}`, { method: 'DELETE', headers: { origin: server.baseUrl } });
    expect((await del(bia, lapLink.id)).status).toBe(404);
    expect((await server.fetch(`${server.baseUrl}/api/shared/${t}`)).status).toBe(200);
    expect((await del(ana, lapLink.id)).status).toBe(200);
    for (const path of ['', '/lap', '/preview.png'])
      expect((await server.fetch(`${server.baseUrl}/api/shared/${t}${path}`)).status).toBe(404);
    expect((await server.fetch(`${server.baseUrl}/v/${t}`)).status).toBe(404);
    expect((await del(ana, lapLink.id)).status).toBe(404);
  });
});

// Two instances on one PostgreSQL: a link revoked on one stops on the other at once.
describe.skipIf(!onPostgres)('revocation across instances', () => {
  let other: TestServer;
  beforeAll(async () => {
    other = await startTestServer(sameDatabase(server), { inject: true });
  });
  afterAll(async () => {
    await other?.close();
  });

  it('a link revoked on one instance is 404 on the other at once', async () => {
    const made = (await (await post(ana, session)).json()) as { id: string; url: string };
    const t = tokenOf(made.url);
    expect((await other.fetch(`${other.baseUrl}/api/shared/${t}`)).status).toBe(200);
    expect(
      (await ana.request(`/api/shares/${made.id}`, { method: 'DELETE', headers: { origin: server.baseUrl } })).status,
    ).toBe(200);
    expect((await other.fetch(`${other.baseUrl}/api/shared/${t}`)).status).toBe(404);
  });
});

// Last: it spends this address's allowance (counted in the database, so on every instance).
describe('rate limits', () => {
  it('public reads are rate limited per address', async () => {
    let status = 0;
    for (let i = 0; i < 80 && status !== 429; i++)
      status = (await server.fetch(`${server.baseUrl}/api/shared/${'y'.repeat(43)}`)).status;
    expect(status).toBe(429);
  });
});

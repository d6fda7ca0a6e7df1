import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathOf, SESSION_DATE, SESSION_TRACK, startWithRiderOfEveryRole } from '#test/every-route.ts';
import type { Browser, TestServer } from '#test/test-server.ts';

// A signed-in answer is its rider's alone: `Cache-Control: private, no-store` and `Vary: Cookie` on
// every one, so no shared cache hands one rider's answer (their Wi-Fi password in /api/me) to another.
const DEVICE = '000000000095';
const SESSION = `/api/devices/${DEVICE}/sessions/${SESSION_TRACK}/${SESSION_DATE}`;

let server: TestServer;
let rider: Browser;

function expectPrivate(res: Response, what: string) {
  expect(res.headers.get('cache-control'), what).toBe('private, no-store');
  expect(
    (res.headers.get('vary') ?? '')
      .toLowerCase()
      .split(',')
      .map((n) => n.trim()),
    what,
  ).toContain('cookie');
}

beforeAll(async () => {
  ({ server, rider } = await startWithRiderOfEveryRole(DEVICE));
});
afterAll(async () => {
  await server.close();
});

describe('signed-in answers', () => {
  it('/api/me, a change, an error and a revalidated read are all private and never stored', async () => {
    const me = await rider.request('/api/me');
    expect(me.status).toBe(200);
    expectPrivate(me, '/api/me');
    const changed = await rider.request('/api/me/profile', {
      method: 'PUT',
      headers: { origin: server.baseUrl, 'content-type': 'application/json' },
      body: JSON.stringify({ wifi: 'Box 7', senha: 'segredo123', nomePiloto: 'Ana', numeroMoto: '27' }),
    });
    expect(changed.status).toBe(200);
    expectPrivate(changed, 'PUT /api/me/profile');
    const missing = await rider.request('/api/devices/000000000096/sessions/Interlagos/01112026/laps');
    expect(missing.status).toBe(404);
    expectPrivate(missing, 'a 404');
    // The laps keep their ETag: the service worker revalidates its own copy with it (a 304).
    const laps = await rider.request(`${SESSION}/laps`, { headers: { 'accept-encoding': 'gzip' } });
    expect(laps.status).toBe(200);
    expectPrivate(laps, 'laps');
    expect(laps.headers.get('vary')?.toLowerCase()).toContain('accept-encoding');
    const again = await rider.request(`${SESSION}/laps`, {
      headers: { 'accept-encoding': 'gzip', 'if-none-match': laps.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
    expectPrivate(again, 'a 304');
  });

  it('every GET route of the API answers a signed-in rider privately, whatever it answers', async () => {
    const routes = server.app.accessRules.filter(
      (r) => r.method === 'GET' && r.url.startsWith('/api/') && !r.url.startsWith('/api/docs'),
    );
    expect(routes.length).toBeGreaterThan(30);
    const notPrivate: string[] = [];
    for (const rule of routes) {
      const path = pathOf(rule.url, { id: DEVICE, track: SESSION_TRACK, date: SESSION_DATE }, 'x');
      const aborted = new AbortController();
      // Headers are enough (the live updates' stream never ends by itself).
      const res = await fetch(new URL(path, server.baseUrl), {
        headers: { cookie: rider.cookieHeader() },
        redirect: 'manual',
        signal: aborted.signal,
      });
      const vary = (res.headers.get('vary') ?? '').toLowerCase();
      const directives = (res.headers.get('cache-control') ?? '').split(',').map((d) => d.trim());
      // A shared link's answer is the same for every holder, and stored by no cache at all.
      const sharedLink = rule.url.startsWith('/api/shared/');
      if (
        !directives.includes('no-store') ||
        !(directives.includes('private') || sharedLink) ||
        !vary.includes('cookie')
      )
        notPrivate.push(`${rule.url} (${res.status}): ${res.headers.get('cache-control')}; vary ${vary}`);
      aborted.abort();
    }
    expect(notPrivate).toEqual([]);
  });

  it('leaves a signed-out visitor’s public answers as they were', async () => {
    const health = await fetch(new URL('/api/health', server.baseUrl));
    expect(health.status).toBe(200);
    expect(health.headers.get('cache-control')).toBeNull();
  });
});

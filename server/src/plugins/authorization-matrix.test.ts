import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessRule } from './policy';
import { addDevice, GPS_LINE, LAP_LINE, put } from '../../test/fixtures';
import { Browser, startTestServer, type TestServer } from '../../test/test-server';
import { setRoles } from '../modules/users/users.repository';

/**
 * Enumerates every route the app registered (app.accessRules, filled by the policy plugin) and
 * calls each as eight identities, asserting allow or deny against the policy. Deny is 401, 403 or
 * 404 and never carries rider A's data.
 */
type Identity = 'anonymous' | 'riderA' | 'riderB' | 'sellerS' | 'sellerT' | 'admin' | 'deviceA' | 'deviceOther';
const IDENTITIES: Identity[] = ['anonymous', 'riderA', 'riderB', 'sellerS', 'sellerT', 'admin', 'deviceA', 'deviceOther'];
const SIGNED_IN: Identity[] = ['riderA', 'riderB', 'sellerS', 'sellerT', 'admin'];
const A_DEVICE = '000000000010';
// A's raw lap time and storage path: never in an answer to anyone but A, admins and A's device.
const A_MARKERS = ['0132456', `${A_DEVICE}/Interlagos`];
const MAY_SEE_A: Identity[] = ['riderA', 'admin', 'deviceA'];

let server: TestServer;
const browsers = new Map<Identity, Browser>();
const tokens: Partial<Record<Identity, string>> = {};

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: 'admin@example.com' });
  tokens.deviceA = await addDevice(server, A_DEVICE, 'a@example.com');
  tokens.deviceOther = await addDevice(server, '000000000020', 'b@example.com');
  await addDevice(server, '000000000030', 'company@voltas.local', 's@example.com');
  await put(server, '/api/device/v1/sessions/Interlagos/01112026/lap.six', tokens.deviceA, LAP_LINE);
  await put(server, '/api/device/v1/sessions/Interlagos/01112026/gps.six', tokens.deviceA, GPS_LINE);
  for (const [id, email] of [['riderA', 'a@example.com'], ['riderB', 'b@example.com'], ['sellerS', 's@example.com'], ['sellerT', 't@example.com'], ['admin', 'admin@example.com']] as const) {
    const b = new Browser(server.baseUrl);
    await b.signIn(email);
    browsers.set(id, b);
  }
  await setRoles(server.database.db, 's@example.com', { adm: '', seller: '1' });
  await setRoles(server.database.db, 't@example.com', { adm: '', seller: '1' });
});
afterAll(async () => {
  await server.close();
});

function expected(rule: AccessRule, who: Identity): 'allow' | 'deny' {
  switch (rule.access) {
    case 'public':
      return 'allow';
    case 'rider':
      if (!SIGNED_IN.includes(who)) return 'deny';
      // Rider A's device, sessions and stored files: A and admins only.
      if (rule.url.startsWith('/api/devices/:id') || rule.url === '/api/storage/metadata') return who === 'riderA' || who === 'admin' ? 'allow' : 'deny';
      return 'allow';
    case 'seller':
      return who === 'sellerS' || who === 'sellerT' ? 'allow' : 'deny';
    case 'admin':
      return who === 'admin' ? 'allow' : 'deny';
    case 'device':
      if (rule.url.includes('/devices/:id/')) return who === 'deviceA' ? 'allow' : 'deny';
      return who === 'deviceA' || who === 'deviceOther' ? 'allow' : 'deny';
  }
}

function concretePath(rule: AccessRule): string {
  const id = rule.url.startsWith('/api/admin/devices/:id') ? '000000000030' : A_DEVICE;
  let path = rule.url
    .replace(':id', id)
    .replace(':track', 'Interlagos')
    .replace(':date', '01112026')
    .replace(':format', 'csv')
    .replace(':email', 'a%40example.com')
    .replace(':uid', 'x')
    .replace('*', 'x');
  if (path === '/api/storage/metadata') path += `?path=${A_DEVICE}/Interlagos/01112026/lap.six`;
  if (path === '/api/storage/list') path += `?prefix=${A_DEVICE}/Interlagos/01112026/`;
  return path;
}

async function call(rule: AccessRule, who: Identity): Promise<{ status: number; text: string }> {
  const path = concretePath(rule);
  const isDevice = rule.access === 'device' || who === 'deviceA' || who === 'deviceOther';
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
    for (const r of api) expect(['public', 'rider', 'seller', 'admin', 'device']).toContain(r.access);
  });

  it('declares the rule each part of the API must have', () => {
    // Independent of the declarations: a route loosened by mistake fails here.
    const mustBe: [RegExp, AccessRule['access']][] = [
      [/^\/api\/admin\//, 'admin'],
      [/^\/api\/seller\//, 'seller'],
      [/^\/api\/device\/v1\//, 'device'],
      [/^\/api\/(me|devices|storage|sessions|events)(\/|$)/, 'rider'],
      [/^\/api\/(auth|health)(\/|$)/, 'public'],
    ];
    const api = server.app.accessRules.filter((r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs'));
    for (const r of api) {
      const rule = mustBe.find(([re]) => re.test(r.url));
      expect(rule, `${r.url} belongs to no known part of the API`).toBeDefined();
      expect(`${r.method} ${r.url}: ${r.access}`).toBe(`${r.method} ${r.url}: ${rule![1]}`);
    }
  });

  it('each identity gets exactly what the policy says', async () => {
    const rules = server.app.accessRules
      .filter((r) => ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'].includes(r.method) && !r.url.startsWith('/api/docs'))
      // Logout ends the caller's session: run it last.
      .sort((a, b) => Number(a.url === '/api/auth/logout') - Number(b.url === '/api/auth/logout'));
    const failures: string[] = [];
    for (const rule of rules) {
      for (const who of IDENTITIES) {
        const want = expected(rule, who);
        const { status, text } = await call(rule, who);
        const denied = status === 401 || status === 403 || status === 404;
        const label = `${rule.method} ${rule.url} as ${who}: want ${want}, got ${status}`;
        if (!MAY_SEE_A.includes(who) && A_MARKERS.some((m) => text.includes(m))) failures.push(`${label} (leaked A's data)`);
        if (want === 'deny') {
          if (!denied) failures.push(label);
        } else if (rule.access !== 'public' && (status === 401 || status === 403 || (status === 404 && rule.url.startsWith('/api/')))) {
          failures.push(label);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});

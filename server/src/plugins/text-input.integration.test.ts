import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ptBR } from '#core/i18n/messages/pt-BR.ts';
import { pathOf, SESSION_DATE, SESSION_TRACK, startWithRiderOfEveryRole } from '#test/every-route.ts';
import type { Browser, TestServer } from '#test/test-server.ts';
import type { AccessRule } from './policy';

// The NUL character (U+0000) in any text a client sends: a 400 naming the field, before anything is
// written (PostgreSQL answered 500 for it, and an import left a session built and its file orphaned).
const DEVICE = '000000000090';
const SESSION = `/api/devices/${DEVICE}/sessions/${SESSION_TRACK}/${SESSION_DATE}`;
const METRICS_TOKEN = 'metrics-token-of-the-nul-test';
const VIDEO_ID = '6f1c2d3e-4b5a-4c6d-8e7f-000000000001';
const sync = (name: string) => ({
  id: VIDEO_ID,
  name,
  size: 1000,
  fingerprint: 'a'.repeat(64),
  offsetMs: 0,
  driftPpm: 0,
  method: 'manual',
  errorMs: 10,
});
const profile = (wifi: string) => ({ wifi, senha: 'segredo123', nomePiloto: 'Ana', numeroMoto: '27' });

let server: TestServer;
let rider: Browser;
let token: string;

/** Every key in the blob store (filesystem or S3), walked through the store's own listing. */
async function blobFiles(): Promise<string[]> {
  const out: string[] = [];
  const walk = async (prefix: string): Promise<void> => {
    let pageToken: string | undefined;
    do {
      const page = await server.blobs.list(prefix, { maxResults: 1000, pageToken });
      out.push(...page.items);
      for (const p of page.prefixes) await walk(p);
      pageToken = page.nextPageToken;
    } while (pageToken);
  };
  await walk('');
  return out.sort();
}

function expectRefused(
  res: { status: number; body: { code?: string; fields?: object; mensagem?: string } },
  field: string,
) {
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ code: 'storage/invalid-argument', fields: { [field]: 'noNulCharacter' } });
  expect(res.body.mensagem).toContain(ptBR['fieldErrors.noNulCharacter']);
}

beforeAll(async () => {
  ({ server, rider, token } = await startWithRiderOfEveryRole(
    DEVICE,
    { ADMIN_EMAILS: 'rider@example.com', METRICS_TOKEN },
    { inject: true },
  ));
});
afterAll(async () => {
  await server.close();
});

describe('the NUL character in text', () => {
  it('refuses a video sync whose file name holds one, and stores nothing', async () => {
    const res = await rider.json(`${SESSION}/videos/${VIDEO_ID}`, {
      method: 'PUT',
      body: JSON.stringify(sync('GX01\u00000001.MP4')),
    });
    expectRefused(res, 'name');
    expect((await rider.json(`${SESSION}/videos`)).body).toEqual([]);
  });

  it('refuses a profile whose Wi-Fi name holds one, and keeps the profile as it was', async () => {
    expect(
      (await rider.json('/api/me/profile', { method: 'PUT', body: JSON.stringify(profile('Box 7')) })).status,
    ).toBe(200);
    const res = await rider.json('/api/me/profile', { method: 'PUT', body: JSON.stringify(profile('Box\u00007')) });
    expectRefused(res, 'wifi');
    expect((await rider.json('/api/me')).body.profile.wifi).toBe('Box 7');
  });

  it('refuses an import whose file name holds one: no session built, no file kept', async () => {
    const sessionsBefore = await server.database.db.selectFrom('lap_sessions').select('id').execute();
    const blobsBefore = await blobFiles();
    const res = await rider.request('/api/imports?filename=a%00.gpx', {
      method: 'POST',
      headers: { origin: server.baseUrl, 'content-type': 'application/gpx+xml' },
      body: '<gpx version="1.1"><trk><trkseg><trkpt lat="-23.7" lon="-46.69"><time>2026-11-07T10:00:00Z</time></trkpt></trkseg></trk></gpx>',
    });
    expectRefused({ status: res.status, body: (await res.json()) as object }, 'filename');
    expect(await server.database.db.selectFrom('lap_sessions').select('id').execute()).toEqual(sessionsBefore);
    expect(await server.database.db.selectFrom('import_files').selectAll().execute()).toEqual([]);
    expect(await blobFiles()).toEqual(blobsBefore);
  });

  it('refuses one in a JSON key as well as in a value, however deep', async () => {
    const res = await rider.json('/api/me/preferences', {
      method: 'PUT',
      body: JSON.stringify({ language: 'en', extra: [{ 'a\u0000b': 1 }] }),
    });
    expectRefused(res, 'extra.0.a\u0000b');
  });

  it('refuses one in the query or the path of every route the app serves', async () => {
    // (`all` routes, the bundled OpenID provider's, also list methods fetch cannot send, like TRACE.)
    const rules = server.app.accessRules.filter((r) => ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method));
    expect(rules.length).toBeGreaterThan(40);
    const credentials = (rule: AccessRule): Record<string, string> => {
      if (rule.access === 'device') return { authorization: `Bearer ${token}` };
      if (rule.access === 'metrics') return { authorization: `Bearer ${METRICS_TOKEN}` };
      return rule.access === 'public' ? {} : { cookie: rider.cookieHeader() };
    };
    const call = async (rule: AccessRule, path: string) => {
      const res = await server.fetch(new URL(path, server.baseUrl), {
        method: rule.method,
        headers: { origin: server.baseUrl, ...credentials(rule) },
        redirect: 'manual',
        signal: AbortSignal.timeout(5000),
      });
      const text = await res.text();
      return { status: res.status, body: text.startsWith('{') ? JSON.parse(text) : { text } };
    };
    const unrefused: string[] = [];
    const check = async (rule: AccessRule, path: string, field: string) => {
      // A stream opened (the live updates) instead of the refusal never ends: counted as not refused.
      const res = await call(rule, path).catch(() => ({ status: 0, body: {} as { fields?: Record<string, string> } }));
      if (res.status !== 400 || res.body.fields?.[field] !== 'noNulCharacter')
        unrefused.push(`${rule.method} ${path}: ${res.status}`);
    };
    for (const rule of rules) {
      await check(rule, `${pathOf(rule.url, {}, 'x').replace('*', 'x')}?nul=a%00b`, 'nul');
      const param = /:([A-Za-z]+)/.exec(rule.url)?.[1];
      if (param) await check(rule, pathOf(rule.url, {}, 'x%00y'), param);
    }
    expect(unrefused).toEqual([]);
  });
});

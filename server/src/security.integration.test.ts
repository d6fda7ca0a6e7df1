import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from './plugins/auth-session';
import { addDevice, LAP_LINE, logSink, put } from '#test/fixtures.ts';
import { onS3 } from '#test/test-s3.ts';
import { Browser, sameDatabase, startTestServer, type TestServer } from '#test/test-server.ts';

// The usual web attacks, and what a rider's data must survive. Each point of issue 8 that is a
// property of the running server has a test here; the scripts (fuzz, crash, load) sit in scripts/.

let server: TestServer;
// Every log line at the most verbose level, to look for secrets in them.
const { lines: logLines, stream: sink } = logSink();

beforeAll(async () => {
  server = await startTestServer(
    { ADMIN_EMAILS: 'chefe@example.com', SECRET_KEY: 'k'.repeat(64) },
    { logger: { level: 'trace', stream: sink } },
  );
});
afterAll(async () => {
  await server.close();
});

describe('headers', () => {
  it('CSP allows scripts from our origin only (no inline script), and the page has none inline', async () => {
    const res = await fetch(`${server.baseUrl}/`);
    const csp = res.headers.get('content-security-policy')!;
    const scriptSrc = /script-src ([^;]*)/.exec(csp)![1]!;
    expect(scriptSrc.trim()).toBe("'self'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    // The rider's video plays from their device (an object URL the page made), nothing else.
    expect(/media-src ([^;]*)/.exec(csp)?.[1]?.trim()).toBe("'self' blob:");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    // No HSTS over plain http (config.test.ts checks it behind https).
    expect(res.headers.get('strict-transport-security')).toBeNull();
    for (const page of ['web/index.html', 'web/public/auth-done.html']) {
      const html = readFileSync(page, 'utf8');
      const scripts = html.match(/<script\b[^>]*>/g) ?? [];
      for (const tag of scripts) expect(tag, page).toMatch(/\bsrc=/);
      expect(html).not.toMatch(/\son[a-z]+=/i); // no inline event handlers
    }
  });

  it('the same page headers on every page, also those the bundled OpenID provider writes itself', async () => {
    // Without COOP on the provider's pages the sign-in popup would lose its opener on the way back.
    const pages = await Promise.all(
      ['/', '/laps', '/auth-done.html', '/api/docs/', '/api/auth/login?popup=1'].map((p) =>
        fetch(`${server.baseUrl}${p}`, { redirect: 'manual' }),
      ),
    );
    const provider = await fetch(`${server.baseUrl}/oidc/.well-known/openid-configuration`);
    expect(provider.status).toBe(200);
    const first = pages[0]!;
    for (const name of [
      'content-security-policy',
      'cross-origin-opener-policy',
      'x-content-type-options',
      'x-frame-options',
      'referrer-policy',
    ]) {
      expect(first.headers.get(name), name).toBeTruthy();
      for (const other of [...pages, provider])
        expect(other.headers.get(name), `${name} on ${other.url}`).toBe(first.headers.get(name));
    }
    expect(first.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
  });

  it('API answers, errors included, carry the API set: nothing may load, frame, sniff or read them cross-site', async () => {
    const answers = await Promise.all(
      ['/api/health', '/api/nope', '/api/me', '/api/devices/x/tracks'].map((p) => fetch(`${server.baseUrl}${p}`)),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 404, 401, 401]);
    for (const res of answers) {
      expect(res.headers.get('content-security-policy'), res.url).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers.get('x-content-type-options'), res.url).toBe('nosniff');
      expect(res.headers.get('cross-origin-resource-policy'), res.url).toBe('same-origin');
      // The page headers stay off the wire of every API answer.
      for (const pageOnly of [
        'referrer-policy',
        'x-dns-prefetch-control',
        'x-download-options',
        'x-permitted-cross-domain-policies',
        'origin-agent-cluster',
      ]) {
        expect(res.headers.get(pageOnly), `${pageOnly} on ${res.url}`).toBeNull();
      }
    }
  });
});

describe('sessions and cookies', () => {
  it('the session cookie is HttpOnly, SameSite=Lax, path /, and holds no data', async () => {
    const b = new Browser(server.baseUrl);
    await b.signIn('cookie@example.com');
    const line = b.lastSetCookies.find((l) => l.startsWith(`${SESSION_COOKIE}=`))!;
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/SameSite=Lax/i);
    expect(line).toMatch(/Path=\//);
    expect(b.cookies.get(SESSION_COOKIE)).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(b.cookies.get(SESSION_COOKIE)).not.toContain('cookie');
  });

  it('session fixation: a session id planted before sign-in is never the one signed in', async () => {
    const b = new Browser(server.baseUrl);
    const planted = 'A'.repeat(43);
    b.cookies.set(SESSION_COOKIE, planted);
    await b.signIn('fixation@example.com');
    expect(b.cookies.get(SESSION_COOKIE)).not.toBe(planted);
    const attacker = new Browser(server.baseUrl);
    attacker.cookies.set(SESSION_COOKIE, planted);
    expect((await attacker.json('/api/me')).status).toBe(401);
    expect((await b.json('/api/me')).status).toBe(200);
  });

  it('CSRF: every cookie-authenticated change refuses another origin, for a caller otherwise allowed', async () => {
    const callers = new Map<string, Browser>();
    for (const [access, email] of [
      ['rider', 'csrf.rider@example.com'],
      ['seller', 'csrf.seller@example.com'],
      ['admin', 'chefe@example.com'],
    ] as const) {
      const b = new Browser(server.baseUrl);
      await b.signIn(email);
      if (access === 'seller')
        await server.database.db.updateTable('users').set({ seller: '1' }).where('email', '=', email).execute();
      callers.set(access, b);
    }
    const changes = server.app.accessRules.filter(
      (r) => callers.has(r.access) && !['GET', 'HEAD', 'OPTIONS'].includes(r.method),
    );
    // Logout, public but a change of the caller's sign-in, is checked in its own test below.
    expect(changes.length).toBeGreaterThan(5);
    for (const rule of changes) {
      const url = rule.url.replace(':id', '000000000001').replace(':email', 'chefe%40example.com');
      for (const origin of ['https://evil.example', 'null', `${server.baseUrl}.evil.example`]) {
        const res = await callers
          .get(rule.access)!
          .request(url, { method: rule.method, headers: { origin, 'content-type': 'application/json' }, body: '{}' });
        expect(res.status, `${rule.method} ${rule.url} from ${origin}`).toBe(403);
        expect(((await res.json()) as Record<string, unknown>).message).toBe('Cross-origin request refused.');
      }
    }
  });
});

describe('hole 8: logout is a cookie-authenticated change like the others', () => {
  it('a same-site or foreign page cannot sign a rider out; our own page can', async () => {
    const b = new Browser(server.baseUrl);
    await b.signIn('logout.csrf@example.com');
    for (const origin of ['https://evil.example', 'null', 'http://127.0.0.1:1']) {
      const res = await b.request('/api/auth/logout', {
        method: 'POST',
        headers: { origin, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status, origin).toBe(403);
      expect(((await res.json()) as Record<string, unknown>).message).toBe('Cross-origin request refused.');
      expect((await b.json('/api/me')).status, `still signed in after a logout from ${origin}`).toBe(200);
    }
    expect((await b.json('/api/auth/logout', { method: 'POST', body: '{}' })).status).toBe(200);
    expect((await b.json('/api/me')).status).toBe(401);
  });
});

describe('hole 9: TRUST_PROXY trusts a hop count, so a client cannot pick the address the sign-in limit counts', () => {
  it('rotating X-Forwarded-For does not get past 30 sign-in starts a minute', async () => {
    const other = await startTestServer({ TRUST_PROXY: '1' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 35; i++) {
        // The client rotates the first entry; the proxy in front (one hop) appends the real address.
        const res = await fetch(`${other.baseUrl}/api/auth/login?mode=redirect`, {
          redirect: 'manual',
          headers: { 'x-forwarded-for': `10.9.${i}.1, 203.0.113.7` },
        });
        statuses.push(res.status);
      }
      expect(statuses.slice(30).every((s) => s === 429)).toBe(true);
    } finally {
      await other.close();
    }
  });
});

describe('rate limits', () => {
  it('sign-in starts are limited per client (30 a minute); device calls per token (device-api tests)', async () => {
    const other = await startTestServer();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 35; i++)
        statuses.push((await fetch(`${other.baseUrl}/api/auth/login?mode=redirect`, { redirect: 'manual' })).status);
      expect(statuses.slice(0, 30).every((s) => s !== 429)).toBe(true);
      expect(statuses.slice(30).every((s) => s === 429)).toBe(true);
    } finally {
      await other.close();
    }
  });
});

describe('hostile text in every text field is stored as text and answered as JSON, never run', () => {
  const hostile = [
    "Robert'); DROP TABLE users;--",
    '<script>alert(1)</script>',
    '" onmouseover="alert(1)',
    '${7*7}{{7*7}}',
    'a\u202Eb',
  ];

  it('pilot name, Wi-Fi and password keep every character; the tables are intact', async () => {
    const b = new Browser(server.baseUrl);
    await b.signIn('hostile@example.com');
    for (const text of hostile) {
      const profile = { wifi: text.slice(0, 32), senha: text, nomePiloto: text, numeroMoto: '7' };
      const res = await b.json('/api/me/profile', { method: 'PUT', body: JSON.stringify(profile) });
      expect(res.status).toBe(200);
      const me = await b.request('/api/me');
      expect(me.headers.get('content-type')).toMatch(/^application\/json/);
      expect(((await me.json()) as Record<string, unknown>).profile).toEqual(profile);
    }
    const users = await server.database.db.selectFrom('users').select('email').execute();
    expect(users.length).toBeGreaterThan(1);
  });

  it('track names and e-mails with SQL or markup are refused, not interpreted', async () => {
    const token = await addDevice(server, '000000000120', 'hostile@example.com');
    expect((await put(server, '/api/device/v1/sessions/Safe/01112026/lap.six', token, LAP_LINE)).status).toBe(200);
    const admin = new Browser(server.baseUrl);
    await admin.signIn('chefe@example.com');
    const count = async (table: 'laps' | 'users') =>
      Number(
        (
          await server.database.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = { laps: await count('laps'), users: await count('users') };
    expect(before.laps).toBeGreaterThan(0);
    for (const track of ["x'); DROP TABLE laps;--", '<img src=x>', "' OR '1'='1"]) {
      const res = await put(
        server,
        `/api/device/v1/sessions/${encodeURIComponent(track)}/01112026/lap.six`,
        token,
        LAP_LINE,
      );
      expect(res.status, track).toBe(400);
    }
    for (const email of ["x' OR '1'='1", '<script>@x.com', 'a@b.c"; DROP TABLE users;--']) {
      const res = await admin.json('/api/admin/assign-owner', {
        method: 'POST',
        body: JSON.stringify({ email, deviceId: '000000000120' }),
      });
      expect([400, 404], email).toContain(res.status);
    }
    // Nothing was dropped or added: the same laps and users as before the hostile calls.
    expect({ laps: await count('laps'), users: await count('users') }).toEqual(before);
    expect((await admin.json('/api/admin/users')).status).toBe(200);
  });
});

describe('logs', () => {
  it('hold no session cookie, device token, Wi-Fi password or secret key', async () => {
    const b = new Browser(server.baseUrl);
    await b.signIn('logs@example.com');
    const senha = 'senha-que-nao-aparece-42';
    await b.json('/api/me/profile', {
      method: 'PUT',
      body: JSON.stringify({ wifi: 'Box', senha, nomePiloto: 'Log', numeroMoto: '1' }),
    });
    const token = await addDevice(server, '000000000122', 'logs@example.com');
    await put(server, '/api/device/v1/sessions/Logs/01112026/lap.six', token, LAP_LINE);
    await fetch(`${server.baseUrl}/api/device/v1/config`, { headers: { authorization: `Bearer ${token}` } });
    const all = logLines.join('');
    expect(all.length).toBeGreaterThan(1000); // the requests were logged
    for (const secret of [b.cookies.get(SESSION_COOKIE)!, token, senha, 'k'.repeat(64)])
      expect(all).not.toContain(secret);
  });

  it("hold no sign-in callback's code or state (hole 9)", async () => {
    const b = new Browser(server.baseUrl);
    const callback = await b.authorizeUntilCallback('callback.logs@example.com');
    const code = callback.searchParams.get('code')!;
    const state = callback.searchParams.get('state')!;
    expect(code.length).toBeGreaterThan(10);
    const before = logLines.length;
    await b.request(callback.pathname + callback.search);
    const all = logLines.slice(before).join('');
    expect(all).toContain('/api/auth/callback?[redacted]');
    expect(all).not.toContain(code);
    expect(all).not.toContain(state);
  });
});

describe('health', () => {
  it.skipIf(onS3)('answers 503 when the blob store is unreachable, 200 when it is back', async () => {
    const other = await startTestServer();
    try {
      expect((await fetch(`${other.baseUrl}/api/health`)).status).toBe(200);
      const blobs = path.join(other.dataDir, 'blobs');
      rmSync(blobs, { recursive: true, force: true });
      writeFileSync(blobs, 'not a folder');
      const down = await fetch(`${other.baseUrl}/api/health`);
      expect(down.status).toBe(503);
      expect(((await down.json()) as Record<string, unknown>).message).toMatch(/unreachable/);
      rmSync(blobs);
      expect((await fetch(`${other.baseUrl}/api/health`)).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it.runIf(onS3)('answers 503 when the bucket is missing', async () => {
    const other = await startTestServer({ ...sameDatabase(server), S3_BUCKET: 'no-such-bucket' });
    try {
      expect((await fetch(`${other.baseUrl}/api/health`)).status).toBe(503);
    } finally {
      await other.close();
    }
  });

  it('a graceful stop lets an upload in flight finish and store', async () => {
    const other = await startTestServer();
    const token = await addDevice(other, '000000000123', 'stop@example.com');
    const url = new URL(other.baseUrl);
    const body = Buffer.from(`${LAP_LINE}\n`);
    // In flight: its headers and first bytes have reached the server (on a busy machine a fixed
    // wait is not enough), then the stop begins, then the rest of the body arrives.
    const arrived = new Promise<void>((resolve) => other.app.server.once('request', () => resolve()));
    const req = http.request({
      host: url.hostname,
      port: url.port,
      method: 'PUT',
      path: '/api/device/v1/sessions/Stop/01112026/lap.six',
      agent: false,
      headers: { 'content-type': 'text/plain', 'content-length': body.length, authorization: `Bearer ${token}` },
    });
    const answer = new Promise<number>((resolve) => {
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', () => resolve(-1));
    });
    req.write(body.subarray(0, 10));
    await arrived;
    const closing = other.close();
    setTimeout(() => req.end(body.subarray(10)), 200);
    expect(await answer).toBe(200);
    await closing;
  });
});

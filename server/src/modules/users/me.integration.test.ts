import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres } from '#test/test-database.ts';
import { onS3 } from '#test/test-s3.ts';
import { Browser, sameDatabase, startTestServer, type TestServer } from '#test/test-server.ts';
import { addDevice } from '#test/fixtures.ts';
import { USER_HEADER } from '#core/contracts/user-header.ts';
import { setRoles } from './users.repository';

let server: TestServer;
let rider: Browser;

beforeAll(async () => {
  server = await startTestServer({}, { inject: true });
  rider = new Browser(server);
  await rider.signIn('enroll@example.com', 'Piloto Enroll');
});
afterAll(async () => {
  await server.close();
});

const valid = { wifi: 'Box-7', senha: 'Senha Muito-Secreta#42', nomePiloto: 'Piloto Enroll', numeroMoto: '93' };

describe('PUT /api/me/profile (enroll)', () => {
  it('saves the four fields and GET /api/me returns them to their owner', async () => {
    const res = await rider.json('/api/me/profile', { method: 'PUT', body: JSON.stringify(valid) });
    expect(res.status).toBe(200);
    const me = await rider.json('/api/me');
    expect(me.body.profile).toEqual(valid);
  });

  it('keeps the Wi-Fi password encrypted at rest: the database never holds it', async () => {
    if (onPostgres) {
      // Every row of every table, as text.
      const tables = await sql<{ t: string }>`select tablename as t from pg_tables where schemaname = 'public'`.execute(
        server.database.db,
      );
      for (const { t } of tables.rows) {
        const dump = await sql<{ r: string }>`select ${sql.table(t)}::text as r from ${sql.table(t)}`.execute(
          server.database.db,
        );
        expect(dump.rows.some((row) => row.r.includes(valid.senha))).toBe(false);
      }
    } else {
      const files = ['voltas.sqlite', 'voltas.sqlite-wal']
        .map((f) => path.join(server.dataDir, f))
        .filter((f) => existsSync(f));
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        expect(readFileSync(file).includes(Buffer.from(valid.senha))).toBe(false);
      }
    }
    const row = await server.database.db
      .selectFrom('users')
      .select('senha_enc')
      .where('email', '=', 'enroll@example.com')
      .executeTakeFirstOrThrow();
    expect(row.senha_enc).toMatch(/^v2:/);
    expect(row.senha_enc).not.toContain(valid.senha);
  });

  it('never shows one user the password of another, even with the sealed value copied onto their row', async () => {
    const other = new Browser(server);
    await other.signIn('other@example.com');
    const me = await other.json('/api/me');
    expect(me.body.profile.senha).toBe('');
    expect(JSON.stringify(me.body)).not.toContain(valid.senha);
    // The cipher is bound to its user: someone able to write rows cannot move a password to read it.
    const { senha_enc } = await server.database.db
      .selectFrom('users')
      .select('senha_enc')
      .where('email', '=', 'enroll@example.com')
      .executeTakeFirstOrThrow();
    await server.database.db.updateTable('users').set({ senha_enc }).where('email', '=', 'other@example.com').execute();
    expect((await other.json('/api/me')).body.profile.senha).toBe('');
    const token = await addDevice(server, '000000000321', 'other@example.com');
    const config = await server.fetch(`${server.baseUrl}/api/device/v1/config`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(((await config.json()) as Record<string, unknown>).senha).toBe('');
  });

  it('passwords sealed before the binding (v1) are sealed again, bound to their owner, at start-up', async () => {
    const key = Buffer.from(hkdfSync('sha256', server.config.secretKey, 'voltas', 'wifi-password/v1', 32));
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const ct = Buffer.concat([cipher.update('senha-antiga', 'utf8'), cipher.final()]);
    const legacy = `v1:${Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64')}`;
    const old = new Browser(server);
    await old.signIn('legacy@example.com');
    await server.database.db
      .updateTable('users')
      .set({ senha_enc: legacy })
      .where('email', '=', 'legacy@example.com')
      .execute();
    expect((await old.json('/api/me')).body.profile.senha).toBe('senha-antiga');
    const restarted = await startTestServer(
      { ...sameDatabase(server), SECRET_KEY: server.config.secretKey },
      { dataDir: server.dataDir, keepDataDir: true, inject: true },
    );
    try {
      const row = await restarted.database.db
        .selectFrom('users')
        .select('senha_enc')
        .where('email', '=', 'legacy@example.com')
        .executeTakeFirstOrThrow();
      expect(row.senha_enc).toMatch(/^v2:/);
      expect((await old.json('/api/me')).body.profile.senha).toBe('senha-antiga');
    } finally {
      await restarted.close();
    }
  });

  it('rejects missing fields with 400 and a message key per field', async () => {
    const res = await rider.json('/api/me/profile', {
      method: 'PUT',
      body: JSON.stringify({ wifi: '  ', nomePiloto: 'x' }),
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('storage/invalid-argument');
    expect(res.body.fields).toEqual({ wifi: 'required', senha: 'required', numeroMoto: 'required' });
    const me = await rider.json('/api/me');
    expect(me.body.profile).toEqual(valid); // nothing lost
  });

  it('rejects over-long and malformed values field by field', async () => {
    const res = await rider.json('/api/me/profile', {
      method: 'PUT',
      body: JSON.stringify({ ...valid, nomePiloto: 'x'.repeat(500), numeroMoto: '<b>' }),
    });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ nomePiloto: 'tooLong', numeroMoto: 'invalidBikeNumber' });
  });

  it('rejects a body that is not JSON, and hostile extra fields change nothing', async () => {
    const bad = await rider.json('/api/me/profile', { method: 'PUT', body: '{"wifi":' });
    expect(bad.status).toBe(400);
    const sneaky = await rider.json('/api/me/profile', {
      method: 'PUT',
      body: JSON.stringify({ ...valid, adm: '1', seller: '1' }),
    });
    expect(sneaky.status).toBe(200);
    expect((await rider.json('/api/me')).body.roles).toEqual({ admin: false, seller: false });
  });

  it('is refused signed out', async () => {
    const res = await new Browser(server).json('/api/me/profile', {
      method: 'PUT',
      body: JSON.stringify(valid),
    });
    expect(res.status).toBe(401);
  });
});

describe('whose answer it is (the offline copies are kept per user)', () => {
  it('every API answer to a signed-in request names its user by a key; another user, another key; signed out, none', async () => {
    const a = (await rider.request('/api/me')).headers.get(USER_HEADER);
    expect(a).toMatch(/^[\w-]{43}$/);
    expect(a).not.toContain('enroll');
    expect((await rider.request('/api/sessions')).headers.get(USER_HEADER)).toBe(a);
    const other = new Browser(server);
    await other.signIn('outro.usuario@example.com');
    const b = (await other.request('/api/me')).headers.get(USER_HEADER);
    expect(b).toMatch(/^[\w-]{43}$/);
    expect(b).not.toBe(a);
    const signedOut = await new Browser(server).request('/api/me');
    expect(signedOut.status).toBe(401);
    expect(signedOut.headers.get(USER_HEADER)).toBeNull();
  });
});

describe('health and docs', () => {
  it('GET /api/health answers its status only; admins see what is in use', async () => {
    const pub = await server.app.inject({ method: 'GET', url: '/api/health' });
    expect(pub.json()).toEqual({ status: 'ok' });
    expect(pub.body).not.toMatch(/SQLite|PostgreSQL|filesystem|S3|local|voltas-test/);
    const admin = new Browser(server);
    await admin.signIn('boss@example.com');
    await setRoles(server.database.db, 'boss@example.com', { adm: '1', seller: '' });
    expect((await new Browser(server).json('/api/admin/health')).status).toBe(401);
    const res = await admin.json('/api/admin/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'ok',
      database: expect.stringContaining(onPostgres ? 'PostgreSQL' : 'SQLite'),
      blobs: expect.stringContaining(onS3 ? 'S3 bucket' : 'filesystem'),
      identityProvider: expect.stringContaining('local'),
    });
  });

  it('serves the OpenAPI document at /api/docs/json with the routes', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/me', '/api/me/profile', '/api/health', '/api/auth/login']),
    );
    const html = await server.app.inject({ method: 'GET', url: '/api/docs' });
    expect([200, 302]).toContain(html.statusCode);
  });

  it('unknown API paths give the spec 404 code', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('storage/object-not-found');
  });
});

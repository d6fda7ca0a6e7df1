import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres } from '../../../test/test-database';
import { onS3 } from '../../../test/test-s3';
import { Browser, startTestServer, type TestServer } from '../../../test/test-server';

let server: TestServer;
let rider: Browser;

beforeAll(async () => {
  server = await startTestServer();
  rider = new Browser(server.baseUrl);
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
      const tables = await sql<{ t: string }>`select tablename as t from pg_tables where schemaname = 'public'`.execute(server.database.db);
      for (const { t } of tables.rows) {
        const dump = await sql<{ r: string }>`select ${sql.table(t)}::text as r from ${sql.table(t)}`.execute(server.database.db);
        expect(dump.rows.some((row) => row.r.includes(valid.senha))).toBe(false);
      }
    } else {
      const files = ['voltas.sqlite', 'voltas.sqlite-wal'].map((f) => path.join(server.dataDir, f)).filter((f) => existsSync(f));
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        expect(readFileSync(file).includes(Buffer.from(valid.senha))).toBe(false);
      }
    }
    const row = await server.database.db.selectFrom('users').select('senha_enc').where('email', '=', 'enroll@example.com').executeTakeFirstOrThrow();
    expect(row.senha_enc).toMatch(/^v1:/);
    expect(row.senha_enc).not.toContain(valid.senha);
  });

  it('never shows one user the password of another', async () => {
    const other = new Browser(server.baseUrl);
    await other.signIn('other@example.com');
    const me = await other.json('/api/me');
    expect(me.body.profile.senha).toBe('');
    expect(JSON.stringify(me.body)).not.toContain(valid.senha);
  });

  it('rejects missing fields with 400 and a message key per field', async () => {
    const res = await rider.json('/api/me/profile', { method: 'PUT', body: JSON.stringify({ wifi: '  ', nomePiloto: 'x' }) });
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
    const sneaky = await rider.json('/api/me/profile', { method: 'PUT', body: JSON.stringify({ ...valid, adm: '1', seller: '1' }) });
    expect(sneaky.status).toBe(200);
    expect((await rider.json('/api/me')).body.roles).toEqual({ admin: false, seller: false });
  });

  it('is refused signed out', async () => {
    const res = await new Browser(server.baseUrl).json('/api/me/profile', { method: 'PUT', body: JSON.stringify(valid) });
    expect(res.status).toBe(401);
  });
});

describe('health and docs', () => {
  it('GET /api/health answers 200 with what is in use', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: expect.stringContaining(onPostgres ? 'PostgreSQL' : 'SQLite'), blobs: expect.stringContaining(onS3 ? 'S3 bucket' : 'filesystem'), identityProvider: expect.stringContaining('local') });
  });

  it('serves the OpenAPI document at /api/docs/json with the routes', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/me', '/api/me/profile', '/api/health', '/api/auth/login']));
    const html = await server.app.inject({ method: 'GET', url: '/api/docs' });
    expect([200, 302]).toContain(html.statusCode);
  });

  it('unknown API paths give the spec 404 code', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('storage/object-not-found');
  });
});

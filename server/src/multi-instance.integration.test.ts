import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSession } from '#core/sim/session-generator.ts';
import { addDevice, put, readEvents } from '#test/fixtures.ts';
import { onPostgres } from '#test/test-database.ts';
import { Browser, sameDatabase, startTestServer, type TestServer } from '#test/test-server.ts';
import { loadTracks } from './lib/track-files';

// Two instances are the scale-out configuration: one PostgreSQL database and one S3 bucket
// shared (the PostgreSQL run of npm test). SQLite is one process's database: nothing to share.
describe.skipIf(!onPostgres)('two server instances on one PostgreSQL and one S3 bucket', () => {
  let a: TestServer;
  let b: TestServer;
  const secret = { SECRET_KEY: randomBytes(32).toString('hex') };
  const session = generateSession(loadTracks()[0]!, { seed: 61, heats: 1, lapsPerHeat: [3, 3] });

  beforeAll(async () => {
    a = await startTestServer(secret);
    b = await startTestServer({ ...secret, ...sameDatabase(a) });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('share the database and the bucket', () => {
    expect(b.config.databaseUrl).toBe(a.config.databaseUrl);
    expect(b.config.s3?.bucket).toBe(a.config.s3?.bucket);
    expect(b.baseUrl).not.toBe(a.baseUrl);
  });

  it('a session signed in on A works on B, and signing out on B ends it on A', async () => {
    const onA = new Browser(a.baseUrl);
    await onA.signIn('multi@example.com', 'Piloto Multi');
    const onB = new Browser(b.baseUrl);
    for (const [k, v] of onA.cookies) onB.cookies.set(k, v);
    const me = await onB.json('/api/me');
    expect(me.status).toBe(200);
    expect(me.body.email).toBe('multi@example.com');
    // An encrypted Wi-Fi password saved through B reads back through A (one SECRET_KEY).
    const profile = { wifi: 'Box 7', senha: 'segredo-123', nomePiloto: 'Multi', numeroMoto: '7' };
    expect((await onB.json('/api/me/profile', { method: 'PUT', body: JSON.stringify(profile) })).status).toBe(200);
    expect((await onA.json('/api/me')).body.profile).toEqual(profile);
    expect((await onB.json('/api/auth/logout', { method: 'POST', body: '{}' })).status).toBeLessThan(300);
    expect((await onA.json('/api/me')).status).toBe(401);
  });

  it('an upload through A is seen on B, and streamed live to a rider connected to B', async () => {
    const rider = new Browser(b.baseUrl);
    await rider.signIn('live@example.com');
    const token = await addDevice(a, '000000000070', 'live@example.com');
    const controller = new AbortController();
    const stream = await fetch(`${b.baseUrl}/api/events`, {
      headers: { cookie: rider.cookieHeader() },
      signal: controller.signal,
    });
    const pending = readEvents(stream, /event: session/, 5000);
    expect((await put(a, '/api/device/v1/sessions/Interlagos/22112026/lap.six', token, session.lapSix)).status).toBe(
      200,
    );
    const text = await pending;
    controller.abort();
    expect(text).toContain('event: session');
    expect(text).toContain('"deviceId":"000000000070"');
    const laps = await rider.json('/api/devices/000000000070/sessions/Interlagos/22112026/laps');
    expect(laps.status).toBe(200);
    expect(laps.body.laps).toHaveLength(session.laps.length);
    expect(await b.blobs.get('000000000070/Interlagos/22112026/lap.six')).toEqual(Buffer.from(session.lapSix));
  });

  it('concurrent uploads of one file through A and B leave the index and the blob in agreement', async () => {
    const token = await addDevice(a, '000000000071', 'race@example.com');
    const versions = Array.from({ length: 6 }, (_, i) =>
      session.lapSix
        .split('\n')
        .slice(0, i + 1)
        .join('\n'),
    );
    const results = await Promise.all(
      versions.map((body, i) => put(i % 2 ? b : a, '/api/device/v1/sessions/Monza/22112026/lap.six', token, body)),
    );
    expect(results.map((r) => r.status)).toEqual(versions.map(() => 200));
    const row = await a.database.db
      .selectFrom('lap_sessions')
      .selectAll()
      .where('id', '=', '000000000071/Monza/22112026')
      .executeTakeFirstOrThrow();
    const blob = await a.blobs.head('000000000071/Monza/22112026/lap.six');
    expect(blob?.md5Hash).toBe(row.lap_md5);
    const laps = await a.database.db.selectFrom('laps').select('idx').where('session_id', '=', row.id).execute();
    const stored = (await a.blobs.get('000000000071/Monza/22112026/lap.six'))!.toString();
    expect(laps).toHaveLength(stored.split('\n').filter(Boolean).length);
    expect(await a.database.db.selectFrom('upload_intents').selectAll().execute()).toEqual([]);
  });

  it('rate limits count the hits of both instances together', async () => {
    const token = await addDevice(a, '000000000072', 'limit@example.com');
    let limited = 0;
    for (let i = 0; i < 40; i++) {
      for (const server of [a, b]) {
        const res = await fetch(`${server.baseUrl}/api/device/v1/status`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ version: '1.0.0', up: '1' }),
        });
        if (res.status === 429) limited++;
        else expect(res.status).toBe(200);
      }
    }
    // 60 a minute per token: 80 requests, 40 on each instance, so only a shared count refuses any.
    expect(limited).toBe(20);
  });
});

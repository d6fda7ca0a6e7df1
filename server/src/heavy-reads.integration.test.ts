import { Readable } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSession } from '#core/sim/session-generator.ts';
import { countTurns } from '#test/event-loop-turns.ts';
import { addDevice, put } from '#test/fixtures.ts';
import { Browser, startTestServer, type TestServer } from '#test/test-server.ts';
import { loadTracks } from './lib/track-files';
import { HEAVY_READS_PER_MINUTE, heavyReadsPlugin, MAX_HEAVY_READS_IN_FLIGHT } from './plugins/heavy-reads';
import { errorMappingPlugin } from './plugins/error-mapping';
import { MAX_JSON_SAMPLES } from './modules/sessions/session-reader.service';

// One rider cannot stall the server with heavy reads (issue 19, hole 4). The load-style check
// (another rider's p99 while one abuses) is scripts/abuse.ts, run by npm test.

const session = generateSession(loadTracks()[1]!, { seed: 4, heats: 3, lapsPerHeat: [6, 6], hz: 25 });
const SESSION = '/api/devices/000000000404/sessions/Heavy/01112026';
let server: TestServer;
let rider: Browser;

beforeAll(async () => {
  server = await startTestServer();
  const token = await addDevice(server, '000000000404', 'heavy@example.com');
  expect((await put(server, '/api/device/v1/sessions/Heavy/01112026/gps.six', token, session.gpsSix)).status).toBe(200);
  expect((await put(server, '/api/device/v1/sessions/Heavy/01112026/lap.six', token, session.lapSix)).status).toBe(200);
  rider = new Browser(server.baseUrl);
  await rider.signIn('heavy@example.com');
}, 60_000);
afterAll(async () => {
  await server.close();
});

describe('heavy reads are bounded', () => {
  it(`the JSON samples answer holds at most ${MAX_JSON_SAMPLES} samples, evenly spaced; gps.bin keeps full resolution`, async () => {
    expect(session.sampleCount).toBeGreaterThan(MAX_JSON_SAMPLES);
    const res = await rider.json(`${SESSION}/gps`);
    expect(res.status).toBe(200);
    const { count, totalCount, step, columns } = res.body;
    expect(totalCount).toBe(session.sampleCount);
    expect(step).toBe(Math.ceil(totalCount / MAX_JSON_SAMPLES));
    expect(count).toBeLessThanOrEqual(MAX_JSON_SAMPLES);
    expect(count).toBe(Math.ceil(totalCount / step));
    expect(columns.latitude).toHaveLength(count);
    // Sample k of the answer is sample k*step of the file.
    const lines = session.gpsSix.trim().split('\n');
    expect(columns.timeGps[3]).toBe(lines[3 * step]!.split('|')[3]);
    const bin = await rider.request(`${SESSION}/gps.bin`, { headers: { 'accept-encoding': 'gzip' } });
    expect(Number(bin.headers.get('x-decoded-length'))).toBeGreaterThan(totalCount * 8);
    await bin.arrayBuffer(); // read to its end: an answer left unread would hold the server's close
  });

  it('CSV and GPX exports stream (chunked, no length known ahead), complete', async () => {
    for (const format of ['csv', 'gpx']) {
      const res = await rider.request(`${SESSION}/export/${format}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('transfer-encoding')).toBe('chunked');
      expect(res.headers.get('content-length')).toBeNull();
      const text = await res.text();
      if (format === 'csv') expect(text.trim().split('\r\n')).toHaveLength(session.sampleCount + 1);
      else expect(text.match(/<trkpt /g)).toHaveLength(session.sampleCount);
      expect(text.endsWith(format === 'csv' ? '\r\n' : '</gpx>\n')).toBe(true);
    }
  });

  it('a whole-session export lets the server answer others between its pieces', async () => {
    // Read in process (no socket to wait on), as a fast socket reads it: how many pieces in a row
    // come without another task getting a turn of the event loop.
    for (const format of ['csv', 'gpx']) {
      const counter = countTurns();
      const res = await server.app.inject({
        method: 'GET',
        url: `${SESSION}/export/${format}`,
        headers: { cookie: rider.cookieHeader() },
        payloadAsStream: true,
      });
      expect(res.statusCode).toBe(200);
      const piecesAtTurn = new Map<number, number>();
      let pieces = 0;
      for await (const _piece of res.stream()) {
        piecesAtTurn.set(counter.turns, (piecesAtTurn.get(counter.turns) ?? 0) + 1);
        pieces++;
      }
      counter.stop();
      // A piece is EXPORT_ROWS_PER_CHUNK (2,000) samples: a whole session is many.
      expect(pieces, format).toBeGreaterThan(10);
      expect(Math.max(...piecesAtTurn.values()), format).toBeLessThanOrEqual(2);
    }
  });

  it(`at most ${HEAVY_READS_PER_MINUTE} exports a minute per rider (429 beyond); another rider is not held back`, async () => {
    const other = await startTestServer();
    try {
      const token = await addDevice(other, '000000000405', 'one@example.com');
      await put(other, '/api/device/v1/sessions/Heavy/01112026/lap.six', token, session.lapSix);
      await put(
        other,
        '/api/device/v1/sessions/Heavy/01112026/gps.six',
        token,
        session.gpsSix.split('\n').slice(0, 500).join('\n'),
      );
      const one = new Browser(other.baseUrl);
      await one.signIn('one@example.com');
      const url = '/api/devices/000000000405/sessions/Heavy/01112026/export/csv';
      const statuses: number[] = [];
      for (let i = 0; i < HEAVY_READS_PER_MINUTE + 2; i++) statuses.push((await one.request(url)).status);
      expect(statuses.slice(0, HEAVY_READS_PER_MINUTE).every((s) => s === 200)).toBe(true);
      expect(statuses.slice(HEAVY_READS_PER_MINUTE)).toEqual([429, 429]);
      const admin = new Browser(other.baseUrl);
      await admin.signIn('two@example.com');
      await other.database.db.updateTable('users').set({ adm: '1' }).where('email', '=', 'two@example.com').execute();
      expect((await admin.request(url)).status).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe('heavy reads in flight', () => {
  it(`at most ${MAX_HEAVY_READS_IN_FLIGHT} at a time per user; a finished one frees its place; other users are not counted`, async () => {
    const app = Fastify();
    await app.register(errorMappingPlugin);
    // Who is asking, as the session plugin would say.
    app.decorateRequest('identity', null);
    app.decorateRequest('device', null);
    app.addHook('onRequest', async (req) => {
      req.identity = {
        email: String(req.headers['x-user']),
        authSessionHash: 'h',
        disabled: false,
        admin: false,
        seller: false,
      };
    });
    await app.register(heavyReadsPlugin);
    const held: (() => void)[] = [];
    app.get(
      '/slow',
      { config: { heavyRead: true } },
      () => new Promise<string>((resolve) => held.push(() => resolve('done'))),
    );
    app.get('/light', () => 'light');
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const ask = (user: string, p = '/slow') => fetch(`${base}${p}`, { headers: { 'x-user': user } });
      const first = [ask('ana'), ask('ana')];
      while (held.length < MAX_HEAVY_READS_IN_FLIGHT) await new Promise((r) => setTimeout(r, 10));
      const third = await ask('ana');
      expect(third.status).toBe(429);
      expect(((await third.json()) as Record<string, unknown>).message).toMatch(/At most 2 large downloads/);
      expect((await ask('ana', '/light')).status).toBe(200);
      const bruno = ask('bruno');
      while (held.length < 3) await new Promise((r) => setTimeout(r, 10));
      held.shift()!();
      expect((await first[0]!).status).toBe(200);
      const again = ask('ana');
      while (held.length < 3) await new Promise((r) => setTimeout(r, 10));
      for (const release of held) release();
      expect((await again).status).toBe(200);
      expect((await bruno).status).toBe(200);
      expect((await first[1]!).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('a client that hangs up does not free its place while the server still works on its request (issue 58)', async () => {
    const app = Fastify();
    await app.register(errorMappingPlugin);
    app.decorateRequest('identity', null);
    app.decorateRequest('device', null);
    app.addHook('onRequest', async (req) => {
      req.identity = { email: 'ana', authSessionHash: 'h', disabled: false, admin: false, seller: false };
    });
    await app.register(heavyReadsPlugin);
    // Work that goes on after its client has left (an import read on in its worker), until let go.
    const held: (() => void)[] = [];
    let hungUp = 0;
    app.post('/import', { config: { heavyRead: true } }, async (req) => {
      req.raw.socket.once('close', () => hungUp++);
      await new Promise<void>((resolve) => held.push(resolve));
      return 'done';
    });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const until = async (ok: () => boolean) => {
      while (!ok()) await new Promise((r) => setTimeout(r, 10));
    };
    try {
      const leaving = [0, 1].map(() => new AbortController());
      const abandoned = leaving.map((c) =>
        fetch(`${base}/import`, { method: 'POST', signal: c.signal }).catch(() => 'gone'),
      );
      await until(() => held.length === 2);
      for (const c of leaving) c.abort();
      expect(await Promise.all(abandoned)).toEqual(['gone', 'gone']);
      await until(() => hungUp === 2); // the server has seen both clients leave
      // Both requests are still being worked on: a third waits for none.
      const third = fetch(`${base}/import`, { method: 'POST' });
      const answer = await Promise.race([
        third.then((r) => r.status),
        until(() => held.length > 2).then(() => 'admitted'),
      ]);
      expect(answer).toBe(429);
      // The work done, the places are free again.
      for (const release of held.splice(0)) release();
      const fourth = fetch(`${base}/import`, { method: 'POST' });
      await until(() => held.length === 1);
      held.shift()!();
      expect((await fourth).status).toBe(200);
    } finally {
      for (const release of held) release();
      await app.close();
    }
  });

  it('a streamed download the client abandons halfway frees its place too (no rider locked out)', async () => {
    // Closing cuts the connections its never-ending answers leave.
    const app = Fastify({ forceCloseConnections: true });
    await app.register(errorMappingPlugin);
    app.decorateRequest('identity', null);
    app.decorateRequest('device', null);
    app.addHook('onRequest', async (req) => {
      req.identity = { email: 'ana', authSessionHash: 'h', disabled: false, admin: false, seller: false };
    });
    await app.register(heavyReadsPlugin);
    // An export that never ends by itself: one piece, then it waits for a reader that left.
    app.get('/export', { config: { heavyRead: true } }, (_req, reply) => {
      const body = new Readable({ read() {} });
      body.push('Time,Latitude\r\n'.repeat(1000));
      return reply.type('text/csv').send(body);
    });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      for (let round = 0; round < 3; round++) {
        const downloads = await Promise.all([0, 1].map(() => fetch(`${base}/export`)));
        expect(downloads.map((d) => d.status)).toEqual([200, 200]);
        expect((await fetch(`${base}/export`)).status).toBe(429);
        // The client goes away in the middle of both.
        for (const d of downloads) {
          const reader = d.body!.getReader();
          await reader.read();
          await reader.cancel();
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await app.close();
    }
  });
});

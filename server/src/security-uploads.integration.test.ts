import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addDevice, LAP_LINE, put } from '#test/fixtures.ts';
import { startTestServer, type TestServer } from '#test/test-server.ts';

// Hostile uploads (issue 8): what a broken, lying or stalling client sends leaves nothing behind.

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({});
});
afterAll(async () => {
  await server.close();
});
describe('hostile uploads', () => {
  let token: string;
  beforeAll(async () => {
    token = await addDevice(server, '000000000121', 'uploads@example.com');
  });
  const gpsPath = (track: string) => `/api/device/v1/sessions/${track}/01112026/gps.six`;

  /** Raw request with full control over headers and timing; resolves what the server answered (or -1 if it hung up). */
  function raw(
    pathName: string,
    headers: Record<string, string | number>,
    parts: (Buffer | number)[],
    end = true,
  ): Promise<{ status: number; body: string }> {
    const url = new URL(server.baseUrl);
    return new Promise((resolve) => {
      const req = http.request({
        host: url.hostname,
        port: url.port,
        method: 'PUT',
        path: pathName,
        agent: false,
        headers: { 'content-type': 'text/plain', authorization: `Bearer ${token}`, ...headers },
      });
      req.on('error', () => resolve({ status: -1, body: '' }));
      req.on('response', (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      void (async () => {
        for (const part of parts) {
          if (typeof part === 'number') await new Promise((r) => setTimeout(r, part));
          else req.write(part);
        }
        if (end) req.end();
        else setTimeout(() => req.destroy(), 50);
      })();
    });
  }

  async function nothingStored(track: string) {
    expect(await server.blobs.head(`000000000121/${track}/01112026/gps.six`)).toBeUndefined();
    expect(
      await server.database.db.selectFrom('lap_sessions').select('id').where('track', '=', track).execute(),
    ).toEqual([]);
    expect(await server.database.db.selectFrom('upload_intents').selectAll().execute()).toEqual([]);
  }

  it('gps.six that is binary, UTF-16 or one huge line → 422, nothing stored', async () => {
    const cases: [string, Buffer][] = [
      ['Bin', Buffer.from([0x31, 0x2c, 0x00, 0x32, 0x0a])],
      ['Utf16', Buffer.from('1,2|3|4|000000.000|1|0|A|0|0|0\n', 'utf16le')],
      ['Huge', Buffer.alloc(8 * 1024 * 1024, 0x39)],
    ];
    for (const [track, body] of cases) {
      const res = await put(server, gpsPath(track), token, body);
      expect(res.status, track).toBe(422);
      expect(res.body.code).toBe('storage/invalid-format');
      await nothingStored(track);
    }
  });

  it('a body that says it is gzip is taken as the bytes sent: never inflated past the limits', async () => {
    const { gzipSync } = await import('node:zlib');
    const body = gzipSync(Buffer.from('-23.7,-46.6|100.0|9|120000.000|1|0|A|0|0|100\n'.repeat(1000)));
    const res = await raw(gpsPath('Gzipped'), { 'content-encoding': 'gzip', 'content-length': body.length }, [body]);
    expect(res.status).toBe(422); // gzip's bytes are not a gps.six
    expect(JSON.parse(res.body).code).toBe('storage/invalid-format');
    await nothingStored('Gzipped');
  });

  it('a Content-Length that lies: more promised than sent (client gives up) or less → nothing stored', async () => {
    const line = Buffer.from('-23.7,-46.6|100.0|9|120000.000|1|0|A|0|0|100\n');
    const longer = await raw(gpsPath('LieLong'), { 'content-length': 10_000 }, [line], false);
    expect(longer.status).toBe(-1);
    const shorter = await raw(gpsPath('LieShort'), { 'content-length': 8 }, [line]);
    // The 8 bytes taken as the body hold no valid line (422); the rest reads as a bad next request (400).
    expect([400, 422]).toContain(shorter.status);
    // The given-up connection is noticed in the server's own time: wait for its traces to go.
    await vi.waitFor(() => nothingStored('LieLong'), { timeout: 10_000, interval: 50 });
    await nothingStored('LieShort');
    expect((await put(server, gpsPath('AfterLies'), token, line)).status).toBe(200); // the server still serves
  });

  it('a slow drip that completes is stored; one the client abandons leaves nothing, not even a temp file', async () => {
    const lines = Buffer.from(
      '-23.7,-46.6|100.0|9|120000.000|1|0|A|0|0|100\n-23.7,-46.6|101.0|9|120000.100|1|0|A|0|0|103\n',
    );
    const drip: (Buffer | number)[] = [];
    for (let i = 0; i < lines.length; i += 7) drip.push(lines.subarray(i, i + 7), 20);
    const done = await raw(gpsPath('Drip'), { 'content-length': lines.length }, drip);
    expect(done.status).toBe(200);
    expect(JSON.parse(done.body).indexed).toBe(2);
    const abandoned = await raw(gpsPath('Abandoned'), { 'content-length': lines.length }, drip.slice(0, 6), false);
    expect(abandoned.status).toBe(-1);
    // The server notices the closed connection in its own time (later on a busy machine): wait for it.
    const tmp = path.join(server.dataDir, 'blobs', '.tmp');
    const { readdirSync, existsSync } = await import('node:fs');
    await expect.poll(() => (existsSync(tmp) ? readdirSync(tmp) : []), { timeout: 10_000, interval: 50 }).toEqual([]);
    await nothingStored('Abandoned');
  });
});

describe('a drip that stalls', () => {
  it('is cut off when the connection goes silent, and stores nothing', async () => {
    const other = await startTestServer({}, { timeouts: { idleMs: 400, requestMs: 60_000 } });
    try {
      const token = await addDevice(other, '000000000124', 'stall@example.com');
      const url = new URL(other.baseUrl);
      const status = await new Promise<number>((resolve) => {
        const req = http.request({
          host: url.hostname,
          port: url.port,
          method: 'PUT',
          path: '/api/device/v1/sessions/Stall/01112026/lap.six',
          agent: false,
          headers: { 'content-type': 'text/plain', 'content-length': 1000, authorization: `Bearer ${token}` },
        });
        req.on('response', (res) => resolve(res.statusCode ?? 0));
        req.on('error', () => resolve(-1));
        req.write(LAP_LINE.slice(0, 20)); // then silence
      });
      expect([-1, 408]).toContain(status);
      expect(await other.blobs.head('000000000124/Stall/01112026/lap.six')).toBeUndefined();
      expect((await fetch(`${other.baseUrl}/api/health`)).status).toBe(200);
    } finally {
      await other.close();
    }
  });
});

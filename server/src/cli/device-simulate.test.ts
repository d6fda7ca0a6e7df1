import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashToken } from '../lib/tokens';
import { Browser, startTestServer, type TestServer } from '#test/test-server.ts';
import { uploadWithRetry } from './simulate';
import { run } from './voltas';

let server: TestServer;
let out: string[];

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

function capture() {
  out = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
}
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

const lastLine = () => out.join('').trimEnd().split('\n').at(-1)!;

describe('voltas device add / token, then simulate through the real API', () => {
  it('registers a device, prints its token alone on the last line, stores only a hash; simulate uploads a session', async () => {
    vi.stubEnv('DATA_DIR', server.dataDir);
    if (server.config.databaseUrl) vi.stubEnv('DATABASE_URL', server.config.databaseUrl);
    capture();
    expect(await run(['device', 'add', '000000000555', '--owner', 'Sim@Example.com'])).toBe(0);
    const token = lastLine();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const row = await server.database.db
      .selectFrom('devices')
      .selectAll()
      .where('id', '=', '000000000555')
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hashToken(token));
    expect(row.owner_email).toBe('sim@example.com');

    expect(
      await run([
        'simulate',
        '--server',
        server.baseUrl,
        '--device',
        '000000000555',
        '--token',
        token,
        '--track',
        'Monza',
        '--date',
        '21112026',
        '--seed',
        '3',
      ]),
    ).toBe(0);
    expect(out.join('')).toMatch(/uploaded: \d+ laps, \d+ GPS samples/);
    const rider = new Browser(server.baseUrl);
    await rider.signIn('sim@example.com');
    expect((await rider.json('/api/devices/000000000555/tracks')).body.tracks).toEqual(['Monza']);

    // Rotation: the old token stops working, the new one works.
    capture();
    expect(await run(['device', 'token', '000000000555'])).toBe(0);
    const rotated = lastLine();
    expect(rotated).not.toBe(token);
    const old = await fetch(`${server.baseUrl}/api/device/v1/config`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(old.status).toBe(401);
    const fresh = await fetch(`${server.baseUrl}/api/device/v1/config`, {
      headers: { authorization: `Bearer ${rotated}` },
    });
    expect(fresh.status).toBe(200);
  });

  it('refuses bad ids, duplicates and unknown devices', async () => {
    vi.stubEnv('DATA_DIR', server.dataDir);
    if (server.config.databaseUrl) vi.stubEnv('DATABASE_URL', server.config.databaseUrl);
    capture();
    expect(await run(['device', 'add', '42'])).toBe(2);
    expect(await run(['device', 'add', '000000000555'])).toBe(1);
    expect(await run(['device', 'token', '000000009999'])).toBe(1);
    expect(await run(['simulate', '--server', server.baseUrl])).toBe(2);
  });
});

describe('uploadWithRetry', () => {
  it('retries 503, 408 and 429 with back-off, then succeeds; does not retry a 4xx', async () => {
    const statuses = [503, 408, 429, 200];
    let calls = 0;
    const flaky = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.statusCode = statuses[calls++] ?? 200;
        res.end('{}');
      });
    });
    await new Promise<void>((r) => flaky.listen(0, '127.0.0.1', r));
    const url = new URL(`http://127.0.0.1:${(flaky.address() as AddressInfo).port}/x`);
    const waits: number[] = [];
    const result = await uploadWithRetry(url, 't', Buffer.from('abc'), 'lap.six', {
      progress: () => {},
      sleep: async (ms) => void waits.push(ms),
    });
    expect(result.status).toBe(200);
    expect(calls).toBe(4);
    expect(waits).toHaveLength(3);
    expect(waits[1]!).toBeGreaterThanOrEqual(1000); // doubling: 2nd wait ≥ 50 % of 2 s
    statuses.splice(0, statuses.length, 400);
    calls = 0;
    const refused = await uploadWithRetry(url, 't', Buffer.from('abc'), 'lap.six', {
      progress: () => {},
      sleep: async () => {},
    });
    expect(refused.status).toBe(400);
    expect(calls).toBe(1);
    await new Promise<void>((r) => flaky.close(() => r()));
  });
});

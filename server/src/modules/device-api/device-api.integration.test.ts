import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSession } from '#core/sim/session-generator.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { addDevice, GPS_LINE, LAP_LINE, put } from '#test/fixtures.ts';
import { Browser, startTestServer, type TestServer } from '#test/test-server.ts';

let server: TestServer;
let tokenA: string;
let tokenB: string;
const session = generateSession(loadTracks()[0]!, { seed: 11, heats: 2, lapsPerHeat: [3, 4] });

beforeAll(async () => {
  server = await startTestServer();
  tokenA = await addDevice(server, '000000000010', 'rider.a@example.com');
  tokenB = await addDevice(server, '000000000020', 'rider.b@example.com');
});
afterAll(async () => {
  await server.close();
});

const lapPath = (track = 'Interlagos', date = '21112026') => `/api/device/v1/sessions/${track}/${date}/lap.six`;
const gpsPath = (track = 'Interlagos', date = '21112026') => `/api/device/v1/sessions/${track}/${date}/gps.six`;

/** Every key in the blob store (filesystem or S3), walked through the store's own listing. */
async function blobFiles(): Promise<string[]> {
  const out: string[] = [];
  const walk = async (prefix: string): Promise<void> => {
    let token: string | undefined;
    do {
      const page = await server.blobs.list(prefix, { maxResults: 1000, pageToken: token });
      out.push(...page.items);
      for (const p of page.prefixes) await walk(p);
      token = page.nextPageToken;
    } while (token);
  };
  await walk('');
  return out.sort();
}

describe('device upload → list → laps round trip', () => {
  it('uploads a generated session and its owner reads it back', async () => {
    const gps = await put(server, gpsPath(), tokenA, session.gpsSix);
    expect(gps.status).toBe(200);
    expect(gps.body).toMatchObject({
      stored: true,
      unchanged: false,
      key: '000000000010/Interlagos/21112026/gps.six',
      indexed: session.sampleCount,
      warnings: [],
    });
    const lap = await put(server, lapPath(), tokenA, session.lapSix, {
      'content-md5': createHash('md5').update(session.lapSix).digest('base64'),
    });
    expect(lap.status).toBe(200);
    expect(lap.body.indexed).toBe(session.laps.length);

    const rider = new Browser(server.baseUrl);
    await rider.signIn('rider.a@example.com');
    expect((await rider.json('/api/me')).body.devices).toEqual(['000000000010']);
    expect((await rider.json('/api/devices/000000000010/tracks')).body).toEqual({
      device: '000000000010',
      demo: false,
      tracks: ['Interlagos'],
    });
    expect((await rider.json('/api/devices/000000000010/tracks/Interlagos/dates')).body.dates).toEqual(['21112026']);
    const laps = await rider.json('/api/devices/000000000010/sessions/Interlagos/21112026/laps');
    expect(laps.status).toBe(200);
    expect(laps.body.laps).toHaveLength(session.laps.length);
    expect(laps.body.laps[0]).toMatchObject({ lapCount: 0, heat: 'A', kind: 'out', lapTime: session.laps[0]!.lapTime });
    expect(laps.body.laps.filter((l: { isBest: boolean }) => l.isBest)).toHaveLength(1);
    expect(laps.body.theoreticalBestMs).toBeLessThanOrEqual(laps.body.bestLapMs);
    const gpsRead = await rider.json('/api/devices/000000000010/sessions/Interlagos/21112026/gps');
    expect(gpsRead.body.count).toBe(session.sampleCount);
    expect(Math.max(...gpsRead.body.columns.strSpeedGps)).toBe(session.topSpeedKmh);
    const summary = await rider.json('/api/devices/000000000010/sessions/Interlagos/21112026/summary');
    expect(summary.body).toMatchObject({
      lapCount: session.laps.length,
      sampleCount: session.sampleCount,
      files: { lap: true, gps: true },
    });

    const list = await rider.json('/api/storage/list?prefix=000000000010/Interlagos/21112026/');
    expect(list.body).toEqual({
      prefixes: [],
      items: ['000000000010/Interlagos/21112026/gps.six', '000000000010/Interlagos/21112026/lap.six'],
    });
    const meta = await rider.json('/api/storage/metadata?path=000000000010/Interlagos/21112026/lap.six');
    expect(meta.body).toMatchObject({
      bucket: server.config.s3?.bucket ?? 'voltas',
      name: 'lap.six',
      fullPath: '000000000010/Interlagos/21112026/lap.six',
      size: Buffer.byteLength(session.lapSix),
      md5Hash: createHash('md5').update(session.lapSix).digest('base64'),
      contentType: 'text/plain; charset=utf-8',
      metageneration: '1',
    });
    for (const field of ['generation', 'timeCreated', 'updated']) expect(meta.body[field]).toBeTruthy();
  });

  it('re-sending identical bytes is a no-op; a changed file replaces and re-indexes', async () => {
    const again = await put(server, lapPath(), tokenA, session.lapSix);
    expect(again.body).toMatchObject({ stored: false, unchanged: true });
    const fewer = session.lapSix.split('\n').slice(0, 3).join('\n');
    const changed = await put(server, lapPath(), tokenA, fewer);
    expect(changed.body).toMatchObject({ stored: true, indexed: 3 });
    const rider = new Browser(server.baseUrl);
    await rider.signIn('rider.a@example.com');
    expect((await rider.json('/api/devices/000000000010/sessions/Interlagos/21112026/laps')).body.laps).toHaveLength(3);
  });

  it('keeps the raw bytes of a file with bad lines, indexes the good ones and reports the rest', async () => {
    const body = `${LAP_LINE}\r\nnot a lap\r\n\r\n${LAP_LINE.replace('|A|', '|Q|')}\r\n`;
    const res = await put(server, lapPath('Curitiba', '01022026'), tokenA, body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      stored: true,
      lines: 3,
      indexed: 1,
      warnings: [
        { line: 2, field: '*', reason: 'fieldCount' },
        { line: 4, field: 'heat', reason: 'heat' },
      ],
    });
    const rider = new Browser(server.baseUrl);
    await rider.signIn('rider.a@example.com');
    const laps = await rider.json('/api/devices/000000000010/sessions/Curitiba/01022026/laps');
    expect(laps.body.warnings).toHaveLength(2);
    const stored = await server.blobs.get('000000000010/Curitiba/01022026/lap.six');
    expect(stored?.toString('utf8')).toBe(body);
    // The same bytes again: answered from the index with the same figures and warnings.
    const again = await put(server, lapPath('Curitiba', '01022026'), tokenA, body);
    expect(again.body).toEqual({ ...res.body, stored: false, unchanged: true });
  });
});

describe('bad input gets a clear error and stores nothing', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each case's body is checked field by field
  const cases: [string, () => Promise<{ status: number; body: any }>, number, string][] = [
    ['no token', () => put(server, lapPath('X1'), undefined, LAP_LINE), 401, 'storage/unauthenticated'],
    ['unknown token', () => put(server, lapPath('X2'), 'x'.repeat(43), LAP_LINE), 401, 'storage/unauthenticated'],
    [
      'date that is not a date',
      () => put(server, lapPath('X3', '31022026'), tokenA, LAP_LINE),
      400,
      'storage/invalid-argument',
    ],
    [
      'date not ddmmyyyy',
      () => put(server, lapPath('X4', '2026-11-21'), tokenA, LAP_LINE),
      400,
      'storage/invalid-argument',
    ],
    ['dot-dot track', () => put(server, lapPath('..', '21112026'), tokenA, LAP_LINE), 400, 'storage/invalid-argument'],
    [
      'encoded dot-dot track',
      () => put(server, lapPath('%2e%2e', '21112026'), tokenA, LAP_LINE),
      400,
      'storage/invalid-argument',
    ],
    [
      'encoded slash in track',
      () => put(server, lapPath('a%2Fb', '21112026'), tokenA, LAP_LINE),
      400,
      'storage/invalid-argument',
    ],
    [
      'control character in track',
      () => put(server, lapPath('a%00b', '21112026'), tokenA, LAP_LINE),
      400,
      'storage/invalid-argument',
    ],
    [
      'fullwidth slash look-alike',
      () => put(server, lapPath('a%EF%BC%8Fb', '21112026'), tokenA, LAP_LINE),
      400,
      'storage/invalid-argument',
    ],
    [
      'too long track',
      () => put(server, lapPath('t'.repeat(65), '21112026'), tokenA, LAP_LINE),
      400,
      'storage/invalid-argument',
    ],
    [
      'wrong Content-MD5',
      () => put(server, lapPath('X5'), tokenA, LAP_LINE, { 'content-md5': 'AAAAAAAAAAAAAAAAAAAAAA==' }),
      400,
      'storage/invalid-checksum',
    ],
    [
      'binary body',
      () => put(server, lapPath('X6'), tokenA, Buffer.from([0x30, 0x00, 0xff, 0x10])),
      422,
      'storage/invalid-format',
    ],
    [
      'invalid UTF-8',
      () => put(server, lapPath('X7'), tokenA, Buffer.from([0x30, 0xc3, 0x28])),
      422,
      'storage/invalid-format',
    ],
    [
      'UTF-16',
      () => put(server, lapPath('X8'), tokenA, Buffer.from(`\ufeff${LAP_LINE}`, 'utf16le')),
      422,
      'storage/invalid-format',
    ],
    ['no valid line', () => put(server, lapPath('X9'), tokenA, 'hello\nworld\n'), 422, 'storage/invalid-format'],
    ['empty body', () => put(server, lapPath('X10'), tokenA, ''), 422, 'storage/invalid-format'],
    ['a gps line sent as lap.six', () => put(server, lapPath('X11'), tokenA, GPS_LINE), 422, 'storage/invalid-format'],
    [
      'JSON instead of text',
      () => put(server, lapPath('X12'), tokenA, '{"a":1}', { 'content-type': 'application/json' }),
      415,
      'request/unsupported-media-type',
    ],
    [
      'wrong content type',
      () => put(server, lapPath('X13'), tokenA, LAP_LINE, { 'content-type': 'application/x-www-form-urlencoded' }),
      415,
      'request/unsupported-media-type',
    ],
    [
      'lap.six over the size limit',
      () => put(server, lapPath('X14'), tokenA, `${LAP_LINE}\n`.repeat(25_000)),
      413,
      'storage/server-file-wrong-size',
    ],
  ];
  for (const [name, run, status, code] of cases) {
    it(`${name} → ${status} ${code}`, async () => {
      const before = await blobFiles();
      const res = await run();
      expect(res.status).toBe(status);
      expect(res.body?.code).toBe(code);
      expect(res.body?.message).toBeTruthy();
      expect(await blobFiles()).toEqual(before);
    });
  }

  it('text/plain, application/octet-stream and no Content-Type are what firmware sends: all accepted (issue 20)', async () => {
    for (const [i, type] of ['text/plain; charset=utf-8', 'application/octet-stream', ''].entries()) {
      const res = await put(server, lapPath(`CT${i}`), tokenA, LAP_LINE, { 'content-type': type });
      expect(res.status, type || 'none').toBe(200);
      expect(res.body.indexed, type || 'none').toBe(1);
    }
    const gps = await put(server, '/api/device/v1/sessions/CT9/21112026/gps.six', tokenA, GPS_LINE, {
      'content-type': 'application/octet-stream',
    });
    expect(gps.status).toBe(200);
  });

  it('any other type: 415 with a message naming the accepted ones', async () => {
    const res = await put(server, lapPath('CT8'), tokenA, LAP_LINE, { 'content-type': 'image/png' });
    expect(res.status).toBe(415);
    expect(res.body.message).toBe(
      'Send lap.six as text/plain, application/octet-stream or with no Content-Type (got image/png); nothing was stored.',
    );
    // A JSON route of the device API says what it expects too.
    const status = await fetch(`${server.baseUrl}/api/device/v1/status`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokenA}`, 'content-type': 'text/plain' },
      body: 'up',
    });
    expect(status.status).toBe(415);
    expect(((await status.json()) as Record<string, unknown>).message).toBe(
      'Unsupported Content-Type (text/plain): send the body as application/json.',
    );
  });

  it("a token writing another device's path → 403, nothing stored", async () => {
    const before = await blobFiles();
    const res = await put(
      server,
      '/api/device/v1/devices/000000000020/sessions/Interlagos/21112026/lap.six',
      tokenA,
      LAP_LINE,
    );
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('storage/unauthorized');
    expect(await blobFiles()).toEqual(before);
    const own = await put(
      server,
      '/api/device/v1/devices/000000000020/sessions/Interlagos/21112026/lap.six',
      tokenB,
      LAP_LINE,
    );
    expect(own.status).toBe(200);
  });

  it('rate-limits per token', async () => {
    const token = await addDevice(server, '000000000030', 'rate@example.com');
    let limited = 0;
    for (let i = 0; i < 130; i++) {
      const res = await fetch(`${server.baseUrl}/api/device/v1/config`, {
        headers: { authorization: `Bearer ${token}` },
      });
      if (res.status === 429) limited++;
    }
    expect(limited).toBeGreaterThan(0);
    // Another device is not affected.
    const other = await fetch(`${server.baseUrl}/api/device/v1/config`, {
      headers: { authorization: `Bearer ${tokenB}` },
    });
    expect(other.status).toBe(200);
  });
});

describe('device config and status', () => {
  it("returns the owner's enroll data to the device and records its status", async () => {
    const rider = new Browser(server.baseUrl);
    await rider.signIn('rider.b@example.com');
    await rider.json('/api/me/profile', {
      method: 'PUT',
      body: JSON.stringify({ wifi: 'Box-B', senha: 'senha-b', nomePiloto: 'Beto', numeroMoto: '7' }),
    });
    const res = await fetch(`${server.baseUrl}/api/device/v1/config`, {
      headers: { authorization: `Bearer ${tokenB}` },
    });
    expect(await res.json()).toEqual({ wifi: 'Box-B', senha: 'senha-b', nomePiloto: 'Beto', numeroMoto: '7' });
    const status = await fetch(`${server.baseUrl}/api/device/v1/status`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokenB}`, 'content-type': 'application/json' },
      body: JSON.stringify({ version: '2.4.1', up: '1' }),
    });
    expect(status.status).toBe(200);
    const row = await server.database.db
      .selectFrom('devices')
      .selectAll()
      .where('id', '=', '000000000020')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ version: '2.4.1', up: '1' });
    expect(row.last_seen_at).toBeTruthy();
    expect(row.token_hash).not.toBe(tokenB);
  });
});

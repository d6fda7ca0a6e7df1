import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDevice, LAP_LINE, put } from '#test/fixtures.ts';
import { Browser, startTestServer, type TestServer } from '#test/test-server.ts';
import { setDeviceOwner } from '../devices/devices.repository';
import { hashToken, newToken } from '#server/lib/tokens.ts';

let server: TestServer;
let tokenA: string;
let tokenDemo: string;
let a: Browser;
let b: Browser;

beforeAll(async () => {
  server = await startTestServer({}, { inject: true });
  tokenA = await addDevice(server, '000000000010', 'a@example.com');
  await addDevice(server, '000000000020', 'b@example.com');
  tokenDemo = await addDevice(server, '000000000001', '');
  await put(server, '/api/device/v1/sessions/Interlagos/01112026/lap.six', tokenA, LAP_LINE);
  await put(server, '/api/device/v1/sessions/Interlagos/15102026/lap.six', tokenA, LAP_LINE);
  await put(server, '/api/device/v1/sessions/Curitiba/03032026/lap.six', tokenA, LAP_LINE);
  await put(server, '/api/device/v1/sessions/Monza/30082026/lap.six', tokenDemo, LAP_LINE);
  a = new Browser(server);
  await a.signIn('a@example.com');
  b = new Browser(server);
  await b.signIn('b@example.com');
});
afterAll(async () => {
  await server.close();
});

describe('who sees which sessions (enforced by the server)', () => {
  it('dates come ascending by date, not by text', async () => {
    expect((await a.json('/api/devices/000000000010/tracks')).body.tracks).toEqual(['Curitiba', 'Interlagos']);
    expect((await a.json('/api/devices/000000000010/tracks/Interlagos/dates')).body.dates).toEqual([
      '15102026',
      '01112026',
    ]);
  });

  it("a rider reading another rider's device or session gets 404 and no data", async () => {
    const tracks = await b.json('/api/devices/000000000010/tracks');
    expect(tracks.status).toBe(404);
    expect((await b.json('/api/devices/000000000010/tracks/Interlagos/dates')).status).toBe(404);
    for (const part of ['laps', 'gps', 'summary']) {
      const res = await b.json(`/api/devices/000000000010/sessions/Interlagos/01112026/${part}`);
      expect(res.status).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain('0132456');
    }
    expect((await b.json('/api/storage/metadata?path=000000000010/Interlagos/01112026/lap.six')).status).toBe(404);
    expect((await b.json('/api/storage/list?prefix=000000000010/')).body).toEqual({ prefixes: [], items: [] });
  });

  it('everyone sees the demo device, labelled as a demonstration', async () => {
    const res = await b.json('/api/devices/000000000001/tracks');
    expect(res.body).toEqual({ device: '000000000001', demo: true, tracks: ['Monza'] });
    expect((await b.json('/api/devices/000000000001/sessions/Monza/30082026/laps')).body.demo).toBe(true);
    expect((await b.json('/api/me')).body).toMatchObject({ devices: ['000000000020'], demoDevice: '000000000001' });
  });

  it('laps travel gzipped to a client that takes it, plain otherwise, and an unchanged session answers 304', async () => {
    const url = '/api/devices/000000000010/sessions/Interlagos/01112026/laps';
    const zipped = await a.request(url, { headers: { 'accept-encoding': 'gzip, deflate' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('vary')).toContain('accept-encoding');
    const fromZipped = (await zipped.json()) as { laps: { lapTime: string }[] }; // fetch inflates it
    for (const encoding of ['identity', 'gzip;q=0, identity']) {
      const plain = await a.request(url, { headers: { 'accept-encoding': encoding } });
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect(await plain.json()).toEqual(fromZipped);
    }
    expect(fromZipped.laps[0]?.lapTime).toBe('0132456');
    const again = await a.request(url, { headers: { 'if-none-match': zipped.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('laps travel as Brotli to a browser once it is made (in the background; gzip until then), and as gzip to a client that refuses it', async () => {
    const url = '/api/devices/000000000010/sessions/Interlagos/01112026/laps';
    const browser = { 'accept-encoding': 'gzip, deflate, br' };
    let res = await a.request(url, { headers: browser });
    for (let i = 0; i < 100 && res.headers.get('content-encoding') !== 'br'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      res = await a.request(url, { headers: browser });
    }
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('vary')).toContain('accept-encoding');
    const brBytes = Number(res.headers.get('content-length'));
    const body = await res.json(); // fetch inflates it
    expect(body).toEqual(await (await a.request(url, { headers: { 'accept-encoding': 'identity' } })).json());
    for (const encoding of ['gzip', 'br;q=0, gzip', 'gzip, brotli']) {
      const zipped = await a.request(url, { headers: { 'accept-encoding': encoding } });
      expect(zipped.headers.get('content-encoding'), encoding).toBe('gzip');
      expect(Number(zipped.headers.get('content-length'))).toBeGreaterThan(brBytes);
      expect(await zipped.json()).toEqual(body);
    }
  });

  it('signed out, every read is 401', async () => {
    const anon = new Browser(server);
    expect((await anon.json('/api/devices/000000000001/tracks')).status).toBe(401);
    expect((await anon.json('/api/storage/list')).status).toBe(401);
  });

  it('a device changing hands: each owner keeps only their own sessions', async () => {
    const tokenOfB = newToken();
    await setDeviceOwner(server.database.db, '000000000010', 'b@example.com', hashToken(tokenOfB));
    expect((await put(server, '/api/device/v1/sessions/Interlagos/20112026/lap.six', tokenA, LAP_LINE)).status).toBe(
      401,
    );
    expect((await put(server, '/api/device/v1/sessions/Interlagos/20112026/lap.six', tokenOfB, LAP_LINE)).status).toBe(
      200,
    );
    // The previous owner keeps theirs and does not see the new owner's.
    expect((await a.json('/api/devices/000000000010/tracks/Interlagos/dates')).body.dates).toEqual([
      '15102026',
      '01112026',
    ]);
    expect((await a.json('/api/devices/000000000010/sessions/Interlagos/20112026/laps')).status).toBe(404);
    expect((await a.json('/api/me')).body.devices).toEqual(['000000000010']);
    // The new owner sees only what was uploaded after the sale.
    expect((await b.json('/api/devices/000000000010/tracks/Interlagos/dates')).body.dates).toEqual(['20112026']);
    expect((await b.json('/api/devices/000000000010/sessions/Interlagos/01112026/laps')).status).toBe(404);
    await setDeviceOwner(server.database.db, '000000000010', 'a@example.com', hashToken(tokenA));
  });
});

describe('GET /api/storage/list', () => {
  it('lists levels: devices, tracks, dates, files', async () => {
    expect((await a.json('/api/storage/list')).body).toEqual({ prefixes: ['000000000001', '000000000010'], items: [] });
    expect((await a.json('/api/storage/list?prefix=000000000010/')).body.prefixes).toEqual([
      '000000000010/Curitiba',
      '000000000010/Interlagos',
    ]);
    expect((await a.json('/api/storage/list?prefix=000000000010/Interlagos')).body.prefixes).toEqual([
      '000000000010/Interlagos/01112026',
      '000000000010/Interlagos/15102026',
    ]);
    expect((await a.json('/api/storage/list?prefix=000000000010/Interlagos/01112026')).body.items).toEqual([
      '000000000010/Interlagos/01112026/lap.six',
    ]);
  });

  it('paginates with maxResults and pageToken', async () => {
    const first = await a.json('/api/storage/list?prefix=000000000010/Interlagos/&maxResults=1');
    expect(first.body.prefixes).toEqual(['000000000010/Interlagos/01112026']);
    expect(first.body.nextPageToken).toBeTruthy();
    const second = await a.json(
      `/api/storage/list?prefix=000000000010/Interlagos/&maxResults=1&pageToken=${first.body.nextPageToken}`,
    );
    expect(second.body.prefixes).toEqual(['000000000010/Interlagos/15102026']);
    expect(second.body.nextPageToken).toBeUndefined();
  });

  it("validates maxResults with the spec's exact messages", async () => {
    for (const [value, message] of [
      ['0', "Invalid value for 'options.maxResults'. Expected 1 or greater."],
      ['-5', "Invalid value for 'options.maxResults'. Expected 1 or greater."],
      ['abc', "Invalid value for 'options.maxResults'. Expected 1 or greater."],
      ['1001', "Invalid value for 'options.maxResults'. Expected 1000 or less."],
    ] as const) {
      const res = await a.json(`/api/storage/list?maxResults=${value}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'storage/invalid-argument', message });
    }
    expect((await a.json('/api/storage/list?maxResults=1000')).status).toBe(200);
    expect((await a.json('/api/storage/list?maxResults=1')).status).toBe(200);
  });

  it('refuses path tricks in the prefix and unknown metadata paths', async () => {
    expect((await a.json('/api/storage/list?prefix=000000000010/../x')).status).toBe(400);
    expect((await a.json('/api/storage/metadata?path=../../etc/passwd')).status).toBe(404);
    expect((await a.json('/api/storage/metadata?path=000000000010/Interlagos/01112026/other.txt')).body.code).toBe(
      'storage/object-not-found',
    );
  });
});

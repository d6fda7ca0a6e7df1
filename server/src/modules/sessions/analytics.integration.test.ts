import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeGpsColumns } from '#core/formats/gps-columns-codec.ts';
import { generateSession } from '#core/sim/session-generator.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { addDevice, put, readEvents } from '#test/fixtures.ts';
import { gpsColumnsKey } from './session-files';
import { Browser, sameDatabase, startTestServer, type TestServer } from '#test/test-server.ts';

let server: TestServer;
let rider: Browser;
let token: string;
const session = generateSession(loadTracks()[1]!, { seed: 21, heats: 2, lapsPerHeat: [3, 3] });
const base = '/api/devices/000000000010/sessions/Curitiba/21112026';

beforeAll(async () => {
  server = await startTestServer();
  token = await addDevice(server, '000000000010', 'a@example.com');
  await put(server, '/api/device/v1/sessions/Curitiba/21112026/gps.six', token, session.gpsSix);
  await put(server, '/api/device/v1/sessions/Curitiba/21112026/lap.six', token, session.lapSix);
  rider = new Browser(server.baseUrl);
  await rider.signIn('a@example.com');
});
afterAll(async () => {
  await server.close();
});

describe('analytics reads', () => {
  it('serves the parsed columns as gzip binary that decodes to the samples, with an ETag', async () => {
    const res = await rider.request(`${base}/gps.bin`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    // Sent compressed (fetch inflates it; the header says how it travelled).
    expect(res.headers.get('content-encoding')).toBe('gzip');
    // fetch inflates gzip itself; the bytes are the codec's.
    const c = decodeGpsColumns(new Uint8Array(await res.arrayBuffer()));
    expect(c.count).toBe(session.sampleCount);
    expect(Math.max(...c.speed)).toBe(session.topSpeedKmh);
    const etag = res.headers.get('etag')!;
    const again = await rider.request(`${base}/gps.bin`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    await server.receiver.drain();
    const row = await server.database.db
      .selectFrom('lap_sessions')
      .select('gps_md5')
      .where('id', '=', '000000000010/Curitiba/21112026')
      .executeTakeFirstOrThrow();
    const stored = await server.blobs.get(gpsColumnsKey('000000000010/Curitiba/21112026', row.gps_md5));
    expect(decodeGpsColumns(new Uint8Array(gunzipSync(stored!))).count).toBe(session.sampleCount);
  });

  it('columns stored in an older encoding (before an upgrade) are rebuilt from gps.six on their first read', async () => {
    await server.receiver.drain();
    const id = '000000000010/Curitiba/21112026';
    const row = await server.database.db
      .selectFrom('lap_sessions')
      .select('gps_md5')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const key = gpsColumnsKey(id, row.gps_md5);
    const old = new Uint8Array(gunzipSync((await server.blobs.get(key))!));
    old.set(Buffer.from('VGC2'), 0); // what the previous release wrote
    await server.blobs.put(key, gzipSync(old), 'application/octet-stream', { durable: false });
    // The new release starts on the same data.
    const upgraded = await startTestServer(sameDatabase(server), { dataDir: server.dataDir, keepDataDir: true });
    try {
      const reader = new Browser(upgraded.baseUrl);
      await reader.signIn('a@example.com');
      const res = await reader.request(`${base}/gps.bin`);
      expect(res.status).toBe(200);
      expect(decodeGpsColumns(new Uint8Array(await res.arrayBuffer())).count).toBe(session.sampleCount);
      const rebuilt = new Uint8Array(gunzipSync((await upgraded.blobs.get(key))!));
      expect(Buffer.from(rebuilt.subarray(0, 4)).toString()).toBe('VGC3');
    } finally {
      await upgraded.close();
    }
  });

  it("a replaced gps.six is never answered with the previous version's columns", async () => {
    const other = generateSession(loadTracks()[0]!, { seed: 99, heats: 1, lapsPerHeat: [1, 1] });
    await put(server, '/api/device/v1/sessions/Curitiba/21112026/gps.six', token, other.gpsSix);
    // Immediately, before the background work finishes: the new samples.
    const res = await rider.request(`${base}/gps.bin`);
    expect(decodeGpsColumns(new Uint8Array(await res.arrayBuffer())).count).toBe(other.sampleCount);
    expect((await rider.json(`${base}/analysis`)).body.topSpeedKmh).toBe(other.topSpeedKmh);
    await server.receiver.drain();
    await put(server, '/api/device/v1/sessions/Curitiba/21112026/gps.six', token, session.gpsSix);
    await server.receiver.drain();
    expect(decodeGpsColumns(new Uint8Array(await (await rider.request(`${base}/gps.bin`)).arrayBuffer())).count).toBe(
      session.sampleCount,
    );
  });

  it('reports the analysis figures (what the spec only logged)', async () => {
    const res = await rider.json(`${base}/analysis`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      topSpeedKmh: session.topSpeedKmh,
      maxLeanLeftDeg: session.maxLeanLeftDeg,
      maxLeanRightDeg: session.maxLeanRightDeg,
    });
    expect(res.body.laps).toHaveLength(session.laps.length);
  });

  it('sends the analyses compressed to a browser that asks, and as they are to a client that does not', async () => {
    for (const path of [`${base}/analysis`, `${base}/track-analysis`]) {
      const plain = await rider.request(path, { headers: { 'accept-encoding': 'identity' } });
      const text = await plain.text();
      expect(plain.headers.get('content-encoding'), path).toBeNull();
      expect(text.length, path).toBeGreaterThan(1024);
      const br = await rider.request(path, { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
      expect(br.headers.get('content-encoding'), path).toBe('br');
      expect(br.headers.get('vary'), path).toMatch(/accept-encoding/i);
      expect(Number(br.headers.get('content-length')), path).toBeLessThan(text.length / 3);
      expect(await br.text(), path).toBe(text); // fetch inflates it
      const gzip = await rider.request(path, { headers: { 'accept-encoding': 'gzip' } });
      expect(gzip.headers.get('content-encoding'), path).toBe('gzip');
      expect(await gzip.text(), path).toBe(text);
    }
  });

  it('exports CSV, GPX and the raw files, for the session or one lap', async () => {
    const csv = await rider.request(`${base}/export/csv?heat=A&lap=1`);
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    expect(csv.headers.get('content-disposition')).toMatch(
      /attachment; filename="000000000010_Curitiba_21112026_A1.csv"/,
    );
    const text = await csv.text();
    expect(text.split('\r\n')[0]).toBe('Time,Latitude,Longitude,Speed (KPH),Lap,Lean Angle,Satellites,Heat');
    expect(
      text
        .trim()
        .split('\r\n')
        .slice(1)
        .every((l) => l.split(',')[4] === '1'),
    ).toBe(true);
    // In the rider's units on request: RaceRender's MPH column, the same samples converted.
    const mph = (await (await rider.request(`${base}/export/csv?heat=A&lap=1&units=imperial`)).text()).split('\r\n');
    expect(mph[0]).toBe('Time,Latitude,Longitude,Speed (MPH),Lap,Lean Angle,Satellites,Heat');
    const kmhRow = text.split('\r\n')[1]!.split(',');
    expect(Number(mph[1]!.split(',')[3])).toBeCloseTo(Number(kmhRow[3]) / 1.609344, 0);
    expect((await rider.request(`${base}/export/csv?units=furlongs`)).status).toBe(400);
    const gpx = await rider.request(`${base}/export/gpx`);
    expect(await gpx.text()).toContain('<gpx version="1.1"');
    // A download goes as stored, with its length (the browser shows its progress), even to a browser that takes Brotli.
    const raw = await rider.request(`${base}/export/lap.six`, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(raw.headers.get('content-encoding')).toBeNull();
    expect(raw.headers.get('content-length')).toBe(String(Buffer.byteLength(session.lapSix)));
    expect(await raw.text()).toBe(session.lapSix);
    expect((await rider.request(`${base}/export/csv?heat=A`)).status).toBe(400);
    expect((await rider.request(`${base}/export/csv?heat=D&lap=9`)).status).toBe(404);
    expect((await rider.request(`${base}/export/pdf`)).status).toBe(400);
  });

  it('gps.bin read again comes from memory: the same bytes, no file read', async () => {
    await server.receiver.drain();
    const id = '000000000010/Curitiba/21112026';
    const { gps_md5 } = await server.database.db
      .selectFrom('lap_sessions')
      .select('gps_md5')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const read = () =>
      server.app.inject({
        method: 'GET',
        url: `${base}/gps.bin`,
        headers: { cookie: rider.cookieHeader(), 'accept-encoding': 'gzip' },
      });
    const first = await read();
    expect(first.statusCode).toBe(200);
    // Without the stored columns a read from storage would rebuild them from gps.six (and store them).
    await server.blobs.delete(gpsColumnsKey(id, gps_md5));
    const again = await read();
    expect(again.statusCode).toBe(200);
    expect(Buffer.compare(again.rawPayload, first.rawPayload)).toBe(0);
    expect(await server.blobs.get(gpsColumnsKey(id, gps_md5))).toBeUndefined();
  });

  it('another rider gets none of it', async () => {
    const other = new Browser(server.baseUrl);
    await other.signIn('b@example.com');
    for (const path of ['gps.bin', 'analysis', 'export/csv', 'export/gps.six'])
      expect((await other.request(`${base}/${path}`)).status).toBe(404);
  });
});

describe('live updates', () => {
  it('streams a session event to its owner (and not to another rider), and /api/sessions/latest follows', async () => {
    const other = new Browser(server.baseUrl);
    await other.signIn('b@example.com');
    const controller = new AbortController();
    const open = (b: Browser) =>
      fetch(`${server.baseUrl}/api/events`, { headers: { cookie: b.cookieHeader() }, signal: controller.signal });
    const mine = await open(rider);
    const theirs = await open(other);
    expect(mine.headers.get('content-type')).toMatch(/text\/event-stream/);
    const pending = readEvents(mine, /event: session/, 5000);
    const pendingOther = readEvents(theirs, /event: session/, 1500);
    await put(server, '/api/device/v1/sessions/Interlagos/22112026/lap.six', token, session.lapSix);
    const text = await pending;
    expect(text).toContain('event: session');
    expect(text).toContain('"track":"Interlagos"');
    expect(await pendingOther).not.toContain('event: session');
    controller.abort();
    expect((await rider.json('/api/sessions/latest')).body).toMatchObject({
      device: '000000000010',
      track: 'Interlagos',
      date: '22112026',
      demo: false,
    });
  });
});

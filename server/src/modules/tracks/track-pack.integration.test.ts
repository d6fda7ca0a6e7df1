// The track pack over HTTP (issue 61): the circuits near a device from the catalogue, small, with an
// ETag; a pit lane an admin draws reaches the pack (and changes its ETag).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDevice } from '#test/fixtures.ts';
import { Browser, startTestServer, type TestServer } from '#test/test-server.ts';

let server: TestServer;
let token: string;
let admin: Browser;
const INTERLAGOS = { lat: -23.7036, lon: -46.6997 };

const pack = (query: string, headers: Record<string, string> = {}) =>
  server.fetch(`${server.baseUrl}/api/device/v1/tracks?${query}`, {
    headers: { authorization: `Bearer ${token}`, ...headers },
  });

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: 'admin@example.com' }, { inject: true });
  token = await addDevice(server, '000000000010', 'rider@example.com');
  admin = new Browser(server);
  await admin.signIn('admin@example.com');
});
afterAll(async () => {
  await server.close();
});

describe('the track pack', () => {
  it('gives the circuits near the device, nearest first, with start/finish and sector lines, small and cached', async () => {
    const res = await pack(`lat=${INTERLAGOS.lat}&lon=${INTERLAGOS.lon}&radiusKm=5`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.length).toBeLessThan(20_000);
    const body = JSON.parse(text) as {
      tracks: { id: string; name: string; distanceKm: number; sectors: unknown[]; pitLane: unknown }[];
    };
    expect(body.tracks.length).toBeGreaterThan(0);
    expect(body.tracks[0]!.name).toMatch(/Interlagos|Carlos Pace/i);
    expect(body.tracks[0]!.distanceKm).toBeLessThan(2);
    expect(body.tracks[0]!.sectors.length).toBeGreaterThan(0);
    expect(body.tracks[0]!.pitLane).toBeNull();
    const etag = res.headers.get('etag')!;
    expect(etag).toBeTruthy();
    const again = await pack(`lat=${INTERLAGOS.lat}&lon=${INTERLAGOS.lon}&radiusKm=5`, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');

    // An admin draws its pit lane: it reaches the pack, whose ETag changes.
    const trackId = body.tracks[0]!.id;
    const lane = {
      entry: { a: { lat: -23.7011, lon: -46.6975 }, b: { lat: -23.7012, lon: -46.6973 } },
      exit: { a: { lat: -23.7051, lon: -46.6985 }, b: { lat: -23.7052, lon: -46.6983 } },
    };
    const drawn = await admin.json(`/api/admin/tracks/${encodeURIComponent(trackId)}/pit-lane`, {
      method: 'PUT',
      body: JSON.stringify({ pitLane: lane }),
    });
    expect(drawn.status).toBe(200);
    const changed = await pack(`lat=${INTERLAGOS.lat}&lon=${INTERLAGOS.lon}&radiusKm=5`, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    const withLane = (await changed.json()) as { tracks: { id: string; pitLane: unknown }[] };
    expect(withLane.tracks.find((t) => t.id === trackId)!.pitLane).toEqual(lane);
    const audit = await admin.json('/api/admin/audit');
    expect(audit.body[0]).toMatchObject({ action: 'draw-pit-lane', target: trackId });
  });

  it('refuses a point off the globe, a missing token, and a pit lane for a track that does not exist', async () => {
    expect((await pack('lat=91&lon=0')).status).toBe(400);
    expect((await pack('lon=0')).status).toBe(400);
    expect((await server.fetch(`${server.baseUrl}/api/device/v1/tracks?lat=0&lon=0`)).status).toBe(401);
    expect(((await (await pack('lat=0&lon=-160&radiusKm=1')).json()) as { tracks: unknown[] }).tracks).toEqual([]);
    const missing = await admin.json('/api/admin/tracks/catalogue%3Anope/pit-lane', {
      method: 'PUT',
      body: JSON.stringify({ pitLane: null }),
    });
    expect(missing.status).toBe(404);
  });
});

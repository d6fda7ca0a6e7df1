// The track pack over HTTP (issue 61): the circuits near a device from the catalogue, small, with an
// ETag; a pit lane an admin draws reaches the pack (and changes its ETag).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ptBR } from '#core/i18n/messages/pt-BR.ts';
import { generateSession } from '#core/sim/session-generator.ts';
import { findTrack } from '#server/lib/track-files.ts';
import { addDevice, put } from '#test/fixtures.ts';
import { Browser, startTestServer, type TestServer } from '#test/test-server.ts';
import { setRoles } from '../users/users.repository';

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
    // A circuit nobody has ridden yet has its map for the admin all the same, with its pit lane.
    const detail = await admin.json(`/api/admin/tracks/${encodeURIComponent(trackId)}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ id: trackId, stored: false, pitLane: lane });
    expect(detail.body.line.length).toBeGreaterThan(100);
    expect((await admin.json('/api/admin/tracks/catalogue%3Anope')).status).toBe(404);
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

describe('the pit lane an admin draws on a stored track', () => {
  // Beside Interlagos's main straight: the lines the admin's map starts from are of this kind.
  const lane = {
    entry: { a: { lat: -23.7031, lon: -46.6986 }, b: { lat: -23.7032, lon: -46.6984 } },
    exit: { a: { lat: -23.7005, lon: -46.6962 }, b: { lat: -23.7006, lon: -46.696 } },
  };
  let trackId: string;
  const put_ = (who: Browser, pitLane: unknown) =>
    who.json(`/api/admin/tracks/${encodeURIComponent(trackId)}/pit-lane`, {
      method: 'PUT',
      body: JSON.stringify({ pitLane }),
    });
  const detail = async () => (await admin.json(`/api/admin/tracks/${encodeURIComponent(trackId)}`)).body;
  const packOf = async () => {
    const res = await pack(`lat=${INTERLAGOS.lat}&lon=${INTERLAGOS.lon}&radiusKm=5`);
    const body = (await res.json()) as { tracks: { id: string; pitLane: unknown }[] };
    return { etag: res.headers.get('etag'), lane: body.tracks.find((t) => t.id === trackId)?.pitLane };
  };

  beforeAll(async () => {
    // A rider's session at Interlagos stores the circuit's track (everyone's: a real circuit).
    const gen = generateSession(findTrack('Interlagos')!, { seed: 61, heats: 1, lapsPerHeat: [3, 3], gpsNoise: 0.2 });
    await put(server, '/api/device/v1/sessions/Interlagos/01112026/lap.six', token, gen.lapSix);
    await put(server, '/api/device/v1/sessions/Interlagos/01112026/gps.six', token, gen.gpsSix);
    const rider = new Browser(server);
    await rider.signIn('rider@example.com');
    const analysis = await rider.json('/api/devices/000000000010/sessions/Interlagos/01112026/track-analysis');
    expect(analysis.status).toBe(200);
    trackId = analysis.body.track.id as string;
  });

  it('is in the track detail and the pack once drawn, changes, and is gone from both once cleared', async () => {
    expect(await detail()).toMatchObject({ stored: true, pitLane: null });
    const before = await packOf();
    expect(before.lane).toBeNull();

    expect((await put_(admin, lane)).status).toBe(200);
    expect((await detail()).pitLane).toEqual(lane);
    const drawn = await packOf();
    expect(drawn.lane).toEqual(lane);
    expect(drawn.etag).not.toBe(before.etag);

    const moved = { ...lane, exit: lane.entry, entry: lane.exit };
    expect((await put_(admin, moved)).status).toBe(200);
    expect((await detail()).pitLane).toEqual(moved);
    expect((await packOf()).lane).toEqual(moved);

    expect((await put_(admin, null)).status).toBe(200);
    expect((await detail()).pitLane).toBeNull();
    const cleared = await packOf();
    expect(cleared.lane).toBeNull();
    expect(cleared.etag).toBe(before.etag);
  });

  it('refuses a line of one point, a point off the globe, lines far from the track and anyone but an admin, changing nothing', async () => {
    expect((await put_(admin, lane)).status).toBe(200);
    const kept = await packOf();
    const point = lane.entry.a;

    // One point: both ends of the line the same, or the second end missing.
    const onePoint = await put_(admin, { ...lane, entry: { a: point, b: point } });
    expect(onePoint.status).toBe(400);
    expect(onePoint.body).toMatchObject({ code: 'storage/invalid-argument', fields: { 'pitLane/entry': 'gateWidth' } });
    expect(onePoint.body.mensagem).toContain('pitLane/entry');
    expect((await put_(admin, { ...lane, exit: { a: point } })).status).toBe(400);
    expect((await put_(admin, { entry: lane.entry })).status).toBe(400);

    // Off the globe, and a line on it but across a region rather than a track.
    const offGlobe = await put_(admin, { ...lane, exit: { a: { lat: 91, lon: 0 }, b: { lat: 91, lon: 0.001 } } });
    expect(offGlobe.status).toBe(400);
    expect(JSON.stringify(offGlobe.body.fields)).toContain('pitLane/exit');
    expect((await put_(admin, { ...lane, exit: { a: { lat: 0, lon: 200 }, b: point } })).status).toBe(400);
    expect((await put_(admin, { ...lane, exit: { a: point, b: { lat: -23.8, lon: -46.6 } } })).status).toBe(400);

    // On the globe and the right width, but at another circuit (Curitiba's straight).
    const far = await put_(admin, {
      ...lane,
      exit: { a: { lat: -25.4492, lon: -49.1975 }, b: { lat: -25.4493, lon: -49.1973 } },
    });
    expect(far.status).toBe(422);
    expect(far.body.code).toBe('track/pit-lane-far');
    expect(far.body.mensagem).toBe(ptBR['errors.track/pit-lane-far']);

    // Another role: a rider, a seller, and nobody signed in.
    const seller = new Browser(server);
    await seller.signIn('seller@example.com');
    await setRoles(server.database.db, 'seller@example.com', { adm: '', seller: '1' });
    const rider = new Browser(server);
    await rider.signIn('rider@example.com');
    expect((await put_(rider, null)).status).toBe(403);
    expect((await put_(seller, null)).status).toBe(403);
    expect((await put_(new Browser(server), null)).status).toBe(401);
    expect((await rider.json(`/api/admin/tracks/${encodeURIComponent(trackId)}`)).status).toBe(403);

    expect((await detail()).pitLane).toEqual(lane);
    expect(await packOf()).toEqual(kept);
  });
});

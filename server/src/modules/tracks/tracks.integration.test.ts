import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSession } from '#core/sim/session-generator.ts';
import { gateAcross } from '#core/tracks/gate.ts';
import type { TrackAnalysisResponse } from '#core/contracts/tracks.contract.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { addDevice, put } from '#test/fixtures.ts';
import { Browser, sameDatabase, startTestServer, type TestServer } from '#test/test-server.ts';

// Sessions uploaded through the device API, analysed through the HTTP API as a rider (and an admin) would.

let server: TestServer;
let rider: Browser;
let admin: Browser;
const DEVICE = '000000000031';
const tracks = loadTracks();
// GPS noise ×0.2 (σ ≈ 0.16 m): the API path is what is tested here; the accuracy bound itself, at
// σ ≈ 0.25 m over many more laps, is lap-timing.test.ts's.
const sessions = tracks.map((track, k) => ({
  track,
  gen: generateSession(track, { seed: 70 + k, heats: 2, lapsPerHeat: [4, 5], gpsNoise: 0.2 }),
}));
const path = (track: string, date = '01112026') => `/api/devices/${DEVICE}/sessions/${track}/${date}/track-analysis`;

// The same circuit moved to where no catalogue circuit is: its track is derived from the trace.
const moved = {
  ...tracks[1]!,
  name: 'Longe',
  points: tracks[1]!.points.map(([lat, lon]) => [lat - 12, lon + 18] as [number, number]),
  startFinish: undefined,
};
const far = generateSession(moved, { seed: 90, heats: 1, lapsPerHeat: [4, 4], gpsNoise: 0.3 });

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: 'chefe@example.com' }, { inject: true });
  const token = await addDevice(server, DEVICE, 'piloto@example.com');
  await put(server, `/api/device/v1/sessions/Longe/01112026/lap.six`, token, far.lapSix);
  await put(server, `/api/device/v1/sessions/Longe/01112026/gps.six`, token, far.gpsSix);
  for (const { track, gen } of sessions) {
    expect(
      (await put(server, `/api/device/v1/sessions/${track.name}/01112026/lap.six`, token, gen.lapSix)).status,
    ).toBeLessThan(300);
    expect(
      (await put(server, `/api/device/v1/sessions/${track.name}/01112026/gps.six`, token, gen.gpsSix)).status,
    ).toBeLessThan(300);
  }
  rider = new Browser(server);
  await rider.signIn('piloto@example.com');
  admin = new Browser(server);
  await admin.signIn('chefe@example.com');
});
afterAll(async () => {
  await server.close();
});

describe('track analysis through the API', () => {
  it('a generated session on each bundled circuit: its track, its laps within 0.02 s of the device’s, corners, ideal lap and a comparison', async () => {
    for (const { track, gen } of sessions) {
      const { status, body } = await rider.json(path(track.name));
      expect(status, track.name).toBe(200);
      const a = body as TrackAnalysisResponse;
      expect(a.track.source).toBe('bundled');
      expect(a.track.name).toBe(track.name);
      const flying = a.laps.filter((l) => l.kind === 'flying');
      expect(flying.length).toBe(gen.laps.filter((l) => l.lapCount > 0).length - 2);
      for (const lap of flying) {
        expect(lap.deviceSeconds, `${track.name} ${lap.heat}${lap.number}`).not.toBeNull();
        // One lap list: the time shown is the device's own, Voltas's GPS time beside it as the check.
        expect(lap.seconds).toBe(lap.deviceSeconds);
        expect(lap.timeSource).toBe('device');
        // The device's times are the generator's exact ones.
        expect(
          Math.abs(lap.gpsSeconds - lap.deviceSeconds!),
          `${track.name} ${lap.heat}${lap.number}`,
        ).toBeLessThanOrEqual(0.02);
        expect(lap.differs).toBe(false);
        expect(lap.segmentSeconds.reduce((s, x) => s + x, 0)).toBeCloseTo(lap.gpsSeconds, 6);
      }
      // Laps numbered as the device numbers them.
      expect(flying.map((l) => `${l.heat}${l.number}`)).toEqual(
        gen.laps
          .filter((l, i, all) => l.lapCount > 0 && all.some((m) => m.heat === l.heat && m.lapCount > l.lapCount))
          .map((l) => `${l.heat}${l.lapCount}`),
      );
      expect(a.corners.length).toBeGreaterThanOrEqual(7);
      expect(a.corners.map((c) => c.number)).toEqual(a.corners.map((_, k) => k + 1));
      expect(a.idealLapSeconds).toBeLessThanOrEqual(Math.min(...flying.map((l) => l.gpsSeconds)));
      expect(a.theoreticalBestSeconds).toBeGreaterThan(0);
      expect(a.comparison?.segments.length).toBe(a.segments.length);
      expect(a.comparison?.lapCorners.length).toBe(a.corners.length);
    }
  });

  it('any lap against any other, and a lap that is not there is 404', async () => {
    const first = (await rider.json(path('Curitiba'))).body as TrackAnalysisResponse;
    const [a, b] = first.laps.filter((l) => l.kind === 'flying');
    const { status, body } = await rider.json(`${path('Curitiba')}?lap=${a!.index}&reference=${b!.index}`);
    expect(status).toBe(200);
    expect(body.comparison.lap).toBe(a!.index);
    // The gap between the times shown (the device's), not the GPS times.
    expect(body.comparison.deltaSeconds).toBeCloseTo(a!.seconds! - b!.seconds!, 9);
    expect((await rider.json(`${path('Curitiba')}?lap=9999`)).status).toBe(404);
    expect((await rider.json(`${path('Curitiba')}?lap=abc`)).status).toBe(400);
  });

  it('nobody else sees it: another rider gets 404, signed out 401', async () => {
    const stranger = new Browser(server);
    expect((await stranger.json(path('Curitiba'))).status).toBe(401);
    await stranger.signIn('outro@example.com');
    expect((await stranger.json(path('Curitiba'))).status).toBe(404);
  });

  it('an admin moves the start/finish gate: the laps are timed again there, on every instance', async () => {
    const before = (await rider.json(path('Interlagos'))).body as TrackAnalysisResponse;
    const detail = await admin.json(`/api/admin/tracks/${encodeURIComponent(before.track.id)}`);
    expect(detail.status).toBe(200);
    expect(detail.body.line.length).toBeGreaterThan(100);
    // 200 m on along the line: a point of it and the way it goes there.
    const line = detail.body.line as [number, number][];
    const k = 20; // the line is kept every ~10 m
    const [lat, lon] = line[k]!;
    const [lat2, lon2] = line[k + 1]!;
    const gate = gateAcross({ lat, lon }, (lon2 - lon) * Math.cos((lat * Math.PI) / 180), lat2 - lat);
    expect(
      (
        await rider.json(`/api/admin/tracks/${encodeURIComponent(before.track.id)}/gate`, {
          method: 'PUT',
          body: JSON.stringify({ gate }),
        })
      ).status,
    ).toBe(403);
    const moved = await admin.json(`/api/admin/tracks/${encodeURIComponent(before.track.id)}/gate`, {
      method: 'PUT',
      body: JSON.stringify({ gate }),
    });
    expect(moved.status).toBe(200);
    expect(moved.body.version).toBe(before.track.version + 1);

    const other = await startTestServer(sameDatabase(server), {
      dataDir: server.dataDir,
      keepDataDir: true,
      inject: true,
    });
    try {
      const there = new Browser(other);
      await there.signIn('piloto@example.com');
      const after = (await there.json(path('Interlagos'))).body as TrackAnalysisResponse;
      expect(after.track.version).toBe(before.track.version + 1);
      expect(after.track.gate).toEqual(gate);
      // Timed at another line: the laps ridden cut elsewhere, each a little different (and the
      // warm-up lap that now crosses the moved line twice at speed is a lap too).
      const times = (a: TrackAnalysisResponse) => a.laps.filter((l) => l.complete).map((l) => l.gpsSeconds);
      expect(Math.abs(times(after).length - times(before).length)).toBeLessThanOrEqual(2);
      expect(times(after)).not.toEqual(times(before));
      expect(after.corners[0]!.startM).not.toBe(before.corners[0]!.startM);
      const audit = await admin.json('/api/admin/audit');
      expect(
        audit.body.some(
          (e: { action: string; target: string }) => e.action === 'move-track-gate' && e.target === before.track.id,
        ),
      ).toBe(true);
    } finally {
      await other.close();
    }
  });

  it('an admin moves a sector gate: the sector times change, still adding up to each lap', async () => {
    const before = (await rider.json(path('Monza'))).body as TrackAnalysisResponse;
    expect(before.track.sectors).toHaveLength(3);
    const lapsOf = (a: TrackAnalysisResponse) => a.laps.filter((l) => l.kind === 'flying');
    for (const l of lapsOf(before)) expect(l.sectorSeconds.reduce((s, x) => s + x, 0)).toBeCloseTo(l.gpsSeconds, 6);
    const detail = (await admin.json(`/api/admin/tracks/${encodeURIComponent(before.track.id)}`)).body as {
      line: [number, number][];
    };
    // Sector 2 onto the line ~150 m along from the start/finish.
    const [lat, lon] = detail.line[15]!;
    const [lat2, lon2] = detail.line[16]!;
    const gate = gateAcross({ lat, lon }, (lon2 - lon) * Math.cos((lat * Math.PI) / 180), lat2 - lat);
    const url = `/api/admin/tracks/${encodeURIComponent(before.track.id)}/gate`;
    expect((await admin.json(url, { method: 'PUT', body: JSON.stringify({ gate, sector: 9 }) })).status).toBe(404);
    const moved = await admin.json(url, { method: 'PUT', body: JSON.stringify({ gate, sector: 2 }) });
    expect(moved.status).toBe(200);
    expect(moved.body.gate).toEqual(before.track.gate);
    const after = (await rider.json(path('Monza'))).body as TrackAnalysisResponse;
    // Gates keep driving order: the moved one is now the first.
    expect(after.track.sectors[0]).toEqual(gate);
    expect(lapsOf(after).map((l) => l.seconds)).toEqual(lapsOf(before).map((l) => l.seconds));
    expect(lapsOf(after)[0]!.sectorSeconds[0]).toBeLessThan(lapsOf(before)[0]!.sectorSeconds[0]!);
    for (const l of lapsOf(after)) expect(l.sectorSeconds.reduce((s, x) => s + x, 0)).toBeCloseTo(l.gpsSeconds, 6);
  });

  it('admins list the tracks with their sessions; riders may not', async () => {
    const list = await admin.json('/api/admin/tracks');
    expect(list.status).toBe(200);
    const bundled = list.body.filter((t: { source: string }) => t.source === 'bundled');
    expect(bundled.map((t: { name: string }) => t.name).sort()).toEqual(tracks.map((t) => t.name).sort());
    expect(bundled.every((t: { sessions: number }) => t.sessions === 1)).toBe(true);
    expect((await rider.json('/api/admin/tracks')).status).toBe(403);
  });

  it('the catalogue is searchable by name; a malformed gate is refused with a message', async () => {
    const found = await rider.json('/api/tracks/catalogue?q=interlagos');
    expect(found.status).toBe(200);
    expect(found.body.tracks.some((t: { name: string }) => /Interlagos/.test(t.name))).toBe(true);
    expect((await rider.json('/api/tracks/catalogue?q=a')).status).toBe(400);
    const bad = await admin.json('/api/admin/tracks/bundled%3ACuritiba/gate', {
      method: 'PUT',
      body: JSON.stringify({ gate: { a: { lat: 95, lon: 0 }, b: { lat: 0, lon: 0 } } }),
    });
    expect(bad.status).toBe(400);
    // A line 30 km wide (a hostile or mistaken admin): refused with its field message, nothing changed.
    const wide = await admin.json('/api/admin/tracks/bundled%3ACuritiba/gate', {
      method: 'PUT',
      body: JSON.stringify({ gate: { a: { lat: -25.4, lon: -49.2 }, b: { lat: -25.4, lon: -49.5 } } }),
    });
    expect(wide.status).toBe(400);
    expect(wide.body.fields.gate).toBe('gateWidth');
    expect(
      (
        await admin.json('/api/admin/tracks/no-such-track/gate', {
          method: 'PUT',
          body: JSON.stringify({ gate: { a: { lat: 0.0002, lon: 0 }, b: { lat: 0, lon: 0 } } }),
        })
      ).status,
    ).toBe(404);
  });

  it('a place no catalogue knows: a derived track its rider renames (and nobody else), with Portuguese field messages', async () => {
    const { status, body } = await rider.json(path('Longe'));
    expect(status).toBe(200);
    const a = body as TrackAnalysisResponse;
    expect(a.track.source).toBe('derived');
    expect(a.track.name).toMatch(/^Pista em -?\d+\.\d{4}, -?\d+\.\d{4}$/);
    expect(a.track.renamable).toBe(true);
    expect(a.laps.filter((l) => l.kind === 'flying').length).toBeGreaterThanOrEqual(3);
    const rename = (who: Browser, name: unknown) =>
      who.json(`/api/tracks/${encodeURIComponent(a.track.id)}/name`, { method: 'PUT', body: JSON.stringify({ name }) });
    for (const [bad, field] of [
      ['', 'trackNameShort'],
      ['x'.repeat(61), 'trackNameLong'],
      ['<script>alert(1)</script>', 'trackNameChars'],
    ] as const) {
      const refused = await rename(rider, bad);
      expect(refused.status).toBe(400);
      expect(refused.body.fields.name).toBe(field);
    }
    const stranger = new Browser(server);
    await stranger.signIn('outra@example.com');
    // Another rider's own track is not there for them at all.
    expect((await rename(stranger, 'Minha pista')).status).toBe(404);
    expect((await rename(rider, '  Kartódromo do Zé  ')).status).toBe(200);
    expect(((await rider.json(path('Longe'))).body as TrackAnalysisResponse).track.name).toBe('Kartódromo do Zé');
    // A bundled track is not the rider's to rename.
    const bundled = ((await rider.json(path('Curitiba'))).body as TrackAnalysisResponse).track;
    expect(bundled.renamable).toBe(false);
    expect(
      (
        await rider.json(`/api/tracks/${encodeURIComponent(bundled.id)}/name`, {
          method: 'PUT',
          body: JSON.stringify({ name: 'Outra' }),
        })
      ).status,
    ).toBe(403);
  });

  it('the rider picks the catalogue circuit a session was ridden on: its laps are timed there', async () => {
    const pick = (who: Browser, track: string, catalogueId: string, device = DEVICE, date = '01112026') =>
      who.json(`/api/devices/${device}/sessions/${track}/${date}/track`, {
        method: 'PUT',
        body: JSON.stringify({ catalogueId }),
      });
    const interlagos = '/api/tracks/catalogue?q=interlagos';
    const id = ((await rider.json(interlagos)).body.tracks as { id: string; name: string }[]).find(
      (t) => t.name === 'Autódromo de Interlagos',
    )!.id;
    expect((await pick(rider, 'Interlagos', 'no-such-circuit')).status).toBe(404);
    const picked = await pick(rider, 'Interlagos', id);
    expect(picked.status).toBe(200);
    expect(picked.body.source).toBe('catalogue');
    const after = (await rider.json(path('Interlagos'))).body as TrackAnalysisResponse;
    expect(after.track.id).toBe(picked.body.id);
    expect(after.laps.filter((l) => l.kind === 'flying').length).toBeGreaterThan(5);
    // Not on someone else's session (the demo device's, which every rider may read), and 404 where the session is not theirs to see.
    await server.receiver.drain();
    const stranger = new Browser(server);
    await stranger.signIn('outro.piloto@example.com');
    expect((await pick(stranger, 'Interlagos', id)).status).toBe(404);
  });
});

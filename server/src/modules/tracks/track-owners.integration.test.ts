import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { TrackAnalysisResponse } from '#core/contracts/tracks.contract.ts';
import { GPS_COLUMN_KEYS, type GpsColumns } from '#core/formats/gps-columns.ts';
import { parseGpsSix } from '#core/formats/gps-six.ts';
import { ptBR } from '#core/i18n/messages/pt-BR.ts';
import { writeGpx } from '#core/imports/test-support/writers.ts';
import { generateSession, type TrackGeometry } from '#core/sim/session-generator.ts';
import { catalogueStartFinish } from '#core/tracks/start-finish.ts';
import * as trackOwners from '#server/db/migrations/0012-track-owners.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { Browser, startTestServer, type TestServer } from '#test/test-server.ts';
import { trackCatalogue } from './track-catalogue';
import { insertTrack, setTrackOfSession } from './tracks.repository';
import {
  TRACK_CHOICES_PER_MINUTE,
  TRACK_RENAMES_PER_MINUTE,
  TRACK_SHARES_PER_MINUTE,
  GATE_MOVES_PER_MINUTE,
} from './tracks.routes';
import { SHARES_PER_MINUTE } from '../shares/shares.routes';

// Issue 34, findings 3 and 4: a rider must not take a circuit (or a session's name) from the
// others, and renames or other repeatable writes must neither grow the server's memory nor go
// unlimited. Real files imported over HTTP, on SQLite and (the suite's second run) PostgreSQL.

const goiania = trackCatalogue().search('goiania')[0]!;
const GOIANIA: TrackGeometry = { name: 'Goiânia', points: goiania.outline, startFinish: goiania.startFinish };
const metres = (a: readonly [number, number], b: readonly [number, number]) =>
  Math.hypot((a[0] - b[0]) * 111_320, (a[1] - b[1]) * 111_320 * Math.cos((a[0] * Math.PI) / 180));

/** A session at `track` as a logger records it (GPS columns). */
const ridden = (track: TrackGeometry, seed: number) =>
  parseGpsSix(generateSession(track, { seed, heats: 1, lapsPerHeat: [4, 4], gpsNoise: 0.2 }).gpsSix).value;

/**
 * Rider A's odd file: the laps, then 2.5 minutes on the roads beside the circuit (no catalogue
 * circuit fits it any more), and one fix at 330 km/h 340 m from the real start/finish (where a
 * derived track puts its line: where the file is fastest).
 */
function odd(c: GpsColumns): GpsColumns {
  const extra = 1500;
  const o = { count: c.count + extra } as GpsColumns;
  for (const key of GPS_COLUMN_KEYS) {
    const from = c[key];
    const to = new (from.constructor as new (n: number) => typeof from)(o.count);
    to.set(from as never);
    (o as unknown as Record<string, unknown>)[key] = to;
  }
  const last = c.count - 1;
  const step = 60 / 3.6 / 10 / 111_320; // 60 km/h at 10 Hz, in degrees
  for (let j = 0; j < extra; j++) {
    const i = c.count + j;
    const away = j < extra / 2 ? j : extra - j;
    o.lat[i] = c.lat[last]! - away * step;
    o.lon[i] = c.lon[last]! - away * step * 0.5;
    o.speed[i] = 60;
    o.satellites[i] = c.satellites[last]!;
    o.timeMs[i] = c.timeMs[last]! + (j + 1) * 100;
    o.line[i] = c.line[last]! + j + 1;
    o.lapCount[i] = c.lapCount[last]!;
    o.heat[i] = c.heat[last]!;
  }
  let spike = Math.floor(c.count / 3);
  while (Math.abs(metres([c.lat[spike]!, c.lon[spike]!], goiania.startFinish) - 340) > 15) spike++;
  o.speed[spike] = 330;
  return o;
}

interface ImportAnswer {
  session: { device: string; track: string; date: string };
  track: { id: string; name: string; source: string };
}

let server: TestServer;
let riderA: Browser;
let riderB: Browser;
let admin: Browser;

async function importFile(who: Browser, c: GpsColumns, d: number): Promise<ImportAnswer> {
  const res = await who.request(`/api/imports?filename=dia${d}.gpx`, {
    method: 'POST',
    headers: { origin: server.baseUrl, 'content-type': 'application/gpx+xml' },
    body: writeGpx(c, { y: 2026, m: 3, d }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const answer = (await res.json()) as ImportAnswer;
  imported.push({ who, session: answer.session });
  return answer;
}
/** Every session imported so far, with its importer. */
const imported: { who: Browser; session: ImportAnswer['session'] }[] = [];

const analysisOf = async (who: Browser, s: ImportAnswer['session']) =>
  (await who.json(`/api/devices/${s.device}/sessions/${encodeURIComponent(s.track)}/${s.date}/track-analysis`))
    .body as TrackAnalysisResponse;
const rename = (who: Browser, id: string, name: string) =>
  who.json(`/api/tracks/${encodeURIComponent(id)}/name`, { method: 'PUT', body: JSON.stringify({ name }) });
/** The rate limits' window passing (their counts are rows in the database, shared by every instance). */
const nextMinute = () =>
  (server.database.db as unknown as Kysely<{ rate_limits: object }>).deleteFrom('rate_limits').execute();
const cacheEntries = async (cache: string) =>
  (await server.metrics.cacheEntries.get()).values.find((v) => v.labels.cache === cache)?.value ?? 0;

let aDerived: ImportAnswer;

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: 'chefe@example.com' }, { inject: true });
  [riderA, riderB, admin] = [new Browser(server), new Browser(server), new Browser(server)];
  await riderA.signIn('a@example.com');
  await riderB.signIn('b@example.com');
  await admin.signIn('chefe@example.com');
  aDerived = await importFile(riderA, odd(ridden(GOIANIA, 5)), 1);
});
afterAll(async () => {
  await server.close();
});

describe('a derived track is its rider’s own', () => {
  it("rider A's odd file makes a derived track; B's ordinary file there lands on the catalogue's Goiânia, never named in A's words", async () => {
    expect(aDerived.track.source).toBe('derived');
    expect((await rename(riderA, aDerived.track.id, 'Pista do B - ele e lento')).status).toBe(200);

    const b = await importFile(riderB, ridden(GOIANIA, 6), 2);
    expect(b.track.source).toBe('catalogue');
    expect(b.track.id).toBe(`catalogue:${goiania.id}`);
    expect(b.session.track).toBe(goiania.name);
    const timed = await analysisOf(riderB, b.session);
    expect(timed.track.id).toBe(b.track.id);
    // Timed at the real start/finish line, not at A's 340 m away.
    expect(timed.track.gate).toEqual(catalogueStartFinish(goiania.outline, goiania.startFinish, true));
    const list = await riderB.json('/api/sessions');
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain('Pista do B');

    // A real circuit wins over A's own derived track too.
    const again = await importFile(riderA, ridden(GOIANIA, 7), 3);
    expect(again.track.id).toBe(`catalogue:${goiania.id}`);
  });

  it('a session tied to another rider’s derived track before tracks had owners is identified again on its next read', async () => {
    const b = await importFile(riderB, ridden(GOIANIA, 8), 4);
    const sessionId = `${b.session.device}/${b.session.track}/${b.session.date}`;
    await setTrackOfSession(server.database.db, sessionId, aDerived.track.id);
    const timed = await analysisOf(riderB, b.session);
    expect(timed.track.id).toBe(`catalogue:${goiania.id}`);
    expect(timed.track.name).not.toContain('Pista do B');
  });

  it("B cannot rename A's track (404: not there for B) and A's rename touches none of B's sessions", async () => {
    const refused = await rename(riderB, aDerived.track.id, 'Pista do A');
    expect(refused.status).toBe(404);
    await nextMinute();
    expect((await rename(riderA, aDerived.track.id, 'Kartódromo do A')).status).toBe(200);
    expect((await analysisOf(riderA, aDerived.session)).track.name).toBe('Kartódromo do A');
    const list = JSON.stringify((await riderB.json('/api/sessions')).body);
    expect(list).not.toContain('Kartódromo do A');
    expect(list).toContain(goiania.name);
  });

  it('an admin shares a derived track: every rider’s file there then lands on it, and only admins rename it', async () => {
    // A place no catalogue circuit knows (a bundled circuit moved out to sea).
    const curitiba = loadTracks().find((t) => t.name === 'Curitiba')!;
    const far: TrackGeometry = {
      name: 'Longe',
      points: curitiba.points.map(([lat, lon]) => [lat - 12, lon + 18] as [number, number]),
    };
    const a = await importFile(riderA, ridden(far, 11), 5);
    expect(a.track.source).toBe('derived');
    const b = await importFile(riderB, ridden(far, 12), 5);
    expect(b.track.source).toBe('derived');
    expect(b.track.id).not.toBe(a.track.id); // B's own, not A's

    const share = (who: Browser, id: string, shared: boolean) =>
      who.json(`/api/admin/tracks/${encodeURIComponent(id)}/shared`, {
        method: 'PUT',
        body: JSON.stringify({ shared }),
      });
    expect((await share(riderA, a.track.id, true)).status).toBe(403);
    const bundled = await share(admin, `catalogue:${goiania.id}`, false);
    expect(bundled.status).toBe(400);
    expect(bundled.body.mensagem).toMatch(/catálogo/);
    const shared = await share(admin, a.track.id, true);
    expect(shared.status).toBe(200);
    expect(shared.body.shared).toBe(true);
    await nextMinute();
    expect((await rename(riderA, a.track.id, 'Nome do A')).status).toBe(403);
    expect((await rename(admin, a.track.id, 'Autódromo do Mar')).status).toBe(200);
    const listed = (await admin.json('/api/admin/tracks')).body as { id: string; shared: boolean; createdBy: string }[];
    expect(listed.find((t) => t.id === a.track.id)).toMatchObject({ shared: true, createdBy: 'a@example.com' });
    expect(listed.find((t) => t.id === b.track.id)).toMatchObject({ shared: false, createdBy: 'b@example.com' });

    // An admin-curated track comes before B's own derived one.
    const later = await importFile(riderB, ridden(far, 13), 6);
    expect(later.track.id).toBe(a.track.id);
    expect(later.session.track).toBe('Autódromo do Mar');
  });
});

describe('bounded caches and rate limits', () => {
  it('300 renames of a long track leave the definition cache as it was', async () => {
    await nextMinute();
    // Every session analysed once: the background analyses of the imports (a moment after each) find theirs remembered.
    for (const { who, session } of imported) await analysisOf(who, session);
    const before = {
      definitions: await cacheEntries('track-definitions'),
      analyses: await cacheEntries('track-analyses'),
    };
    expect(before.definitions).toBeGreaterThan(0);
    for (let k = 0; k < 300; k++) {
      if (k % TRACK_RENAMES_PER_MINUTE === 0) await nextMinute();
      expect((await rename(riderA, aDerived.track.id, `Pista ${k}`)).status).toBe(200);
      if (k % 30 === 0) await analysisOf(riderA, aDerived.session);
    }
    expect(await cacheEntries('track-definitions')).toBe(before.definitions);
    expect(await cacheEntries('track-analyses')).toBe(before.analyses);
  });

  it('each repeatable write answers 429 with the Portuguese message past its limit', async () => {
    await nextMinute();
    const s = aDerived.session;
    const writes: [string, Browser, string, string, number][] = [
      ['rename', riderA, 'PUT', `/api/tracks/${encodeURIComponent(aDerived.track.id)}/name`, TRACK_RENAMES_PER_MINUTE],
      [
        'track choice',
        riderA,
        'PUT',
        `/api/devices/${s.device}/sessions/${encodeURIComponent(s.track)}/${s.date}/track`,
        TRACK_CHOICES_PER_MINUTE,
      ],
      [
        'gate move',
        admin,
        'PUT',
        `/api/admin/tracks/${encodeURIComponent(aDerived.track.id)}/gate`,
        GATE_MOVES_PER_MINUTE,
      ],
      [
        'share of a track',
        admin,
        'PUT',
        `/api/admin/tracks/${encodeURIComponent(aDerived.track.id)}/shared`,
        TRACK_SHARES_PER_MINUTE,
      ],
      ['link', riderA, 'POST', '/api/shares', SHARES_PER_MINUTE],
      ['import', riderA, 'POST', '/api/imports?filename=x.gpx', 60],
    ];
    for (const [what, who, method, url, max] of writes) {
      // Bodies the route refuses (400): each still counts, and nothing is written.
      for (let k = 0; k < max; k++)
        expect((await who.json(url, { method, body: '{}' })).status, `${what} ${k + 1}`).not.toBe(429);
      const past = await who.json(url, { method, body: '{}' });
      expect(past.status, what).toBe(429);
      expect(past.body.mensagem).toBe(ptBR['errors.auth/too-many-requests']);
      // Per user: another rider still gets through.
      if (who !== admin)
        expect((await riderB.json(url, { method, body: '{}' })).status, `${what} as another rider`).not.toBe(429);
    }
  });
});

describe('migration 0012', () => {
  it("makes each derived track already there its creator's own, and leaves the others everyone's", async () => {
    const db = server.database.db;
    const now = new Date().toISOString();
    await trackOwners.down(db as Kysely<unknown>);
    try {
      for (const [id, source, created_by] of [
        ['derived:old', 'derived', 'velho@example.com'],
        ['catalogue:old', 'catalogue', 'velho@example.com'],
      ] as const) {
        await (db as unknown as Kysely<{ tracks: Record<string, unknown> }>)
          .insertInto('tracks')
          .values({
            id,
            name: id,
            source,
            gate: '{}',
            south: 0,
            west: 0,
            north: 0,
            east: 0,
            created_by,
            created_at: now,
            updated_at: now,
          })
          .execute();
      }
    } finally {
      await trackOwners.up(db as Kysely<unknown>);
    }
    const rows = await db
      .selectFrom('tracks')
      .select(['id', 'shared', 'created_by'])
      .where('id', 'in', ['derived:old', 'catalogue:old'])
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.id, Number(r.shared)])).toEqual([
      ['catalogue:old', 1],
      ['derived:old', 0],
    ]);
    // Everyone's tracks inserted as before keep being everyone's.
    await insertTrack(db, {
      id: 'bundled:x',
      name: 'x',
      source: 'bundled',
      gate: '{}',
      south: 0,
      west: 0,
      north: 0,
      east: 0,
      created_at: now,
      updated_at: now,
    });
    expect(
      Number((await db.selectFrom('tracks').select('shared').where('id', '=', 'bundled:x').executeTakeFirst())!.shared),
    ).toBe(1);
  });
});

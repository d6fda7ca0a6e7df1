import { sql, type Kysely, type Selectable } from 'kysely';
import type { Lap } from '../../../../core/formats/lap-six';
import { lapFigures } from '../../../../core/laps/lap-math';
import type { LineProblem } from '../../../../core/formats/six-lines';
import type { DB, LapSessionsTable } from '../../db/schema';

export type SessionRow = Selectable<LapSessionsTable>;

/**
 * Who may read which sessions: the owner at upload time, everyone for the demo device, admins all
 * but other riders' imports (those are their importer's alone); `system` (recovery) every one.
 */
export interface Viewer {
  email: string;
  admin: boolean;
  demoDeviceId: string;
  system?: boolean;
}

/** Import collections are 'imp' + hex; device ids are digits. */
export const IMPORT_COLLECTION_PREFIX = 'imp';

function visible(db: Kysely<DB>, viewer: Viewer) {
  let q = db.selectFrom('lap_sessions');
  if (viewer.system) return q;
  if (!viewer.admin) {
    q = q.where((eb) => eb.or([eb('owner_email', '=', viewer.email), eb('device_id', '=', viewer.demoDeviceId)]));
  } else {
    q = q.where((eb) => eb.or([eb('owner_email', '=', viewer.email), eb('device_id', 'not like', `${IMPORT_COLLECTION_PREFIX}%`)]));
  }
  return q;
}

export function findSession(db: Kysely<DB>, id: string): Promise<SessionRow | undefined> {
  return db.selectFrom('lap_sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findVisibleSession(db: Kysely<DB>, viewer: Viewer, id: string): Promise<SessionRow | undefined> {
  return visible(db, viewer).selectAll().where('id', '=', id).executeTakeFirst();
}

/** Whether the viewer owns the device now or holds sessions on it (one query: two EXISTS probes). */
export async function viewerHasDevice(db: Kysely<DB>, email: string, deviceId: string): Promise<boolean> {
  const row = await db
    .selectNoFrom((eb) =>
      eb
        .or([
          eb.exists(db.selectFrom('devices').select('id').where('id', '=', deviceId).where('owner_email', '=', email)),
          eb.exists(db.selectFrom('lap_sessions').select('device_id').where('device_id', '=', deviceId).where('owner_email', '=', email)),
        ])
        .as('ok'),
    )
    .executeTakeFirst();
  return row !== undefined && Boolean(Number(row.ok)); // 1/0 on SQLite, true/false on PostgreSQL
}

export async function listVisibleTracks(db: Kysely<DB>, viewer: Viewer, deviceId: string): Promise<string[]> {
  const rows = await visible(db, viewer).select('track').distinct().where('device_id', '=', deviceId).orderBy('track').execute();
  return rows.map((r) => r.track);
}

export async function listVisibleDates(db: Kysely<DB>, viewer: Viewer, deviceId: string, track: string): Promise<string[]> {
  const rows = await visible(db, viewer)
    .select(['date', 'date_iso'])
    .where('device_id', '=', deviceId)
    .where('track', '=', track)
    .orderBy('date_iso')
    .execute();
  return rows.map((r) => r.date);
}

export function latestVisibleSession(db: Kysely<DB>, viewer: Viewer): Promise<SessionRow | undefined> {
  // Own sessions first: the demo device only stands in when the rider has none.
  return visible(db, viewer)
    .selectAll()
    .orderBy(sql`case when device_id = ${viewer.demoDeviceId} then 1 else 0 end`)
    .orderBy('updated_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export function listVisibleSessions(db: Kysely<DB>, viewer: Viewer, deviceId?: string) {
  let q = visible(db, viewer).selectAll();
  if (deviceId) q = q.where('device_id', '=', deviceId);
  return q.orderBy('device_id').orderBy('track').orderBy('date_iso').execute();
}

export async function listLaps(db: Kysely<DB>, sessionId: string): Promise<Lap[]> {
  const rows = await db.selectFrom('laps').selectAll().where('session_id', '=', sessionId).orderBy('idx').execute();
  return rows.map((r) => ({
    line: r.line,
    lapTime: r.lap_time,
    lapTimeMs: Number(r.lap_time_ms),
    heat: r.heat as Lap['heat'],
    lapSeconds: Number(r.lap_seconds),
    sectors: JSON.parse(r.sectors) as Lap['sectors'],
    sprintCount: Number(r.sprint_count),
    distanceM: Number(r.distance_m),
    lapCount: Number(r.lap_count),
  }));
}

export interface FileIndex {
  md5: string;
  size: number;
  lines: number;
  problems: LineProblem[];
}

/** Creates or updates the session row for one file, and for lap.six replaces its laps. Call in a transaction. */
export async function indexSessionFile(
  trx: Kysely<DB>,
  s: { id: string; deviceId: string; track: string; date: string; dateIso: string; owner: string; now: string },
  kind: 'lap' | 'gps',
  file: FileIndex,
  content: { laps: Lap[] } | { sampleCount: number },
): Promise<void> {
  const fields =
    kind === 'lap'
      ? {
          lap_md5: file.md5,
          lap_size: file.size,
          lap_lines: file.lines,
          lap_problems: JSON.stringify(file.problems),
          lap_count: 'laps' in content ? content.laps.length : 0,
          lap_figures: 'laps' in content ? JSON.stringify(lapFigures(content.laps)) : null,
        }
      : {
          gps_md5: file.md5,
          gps_size: file.size,
          gps_lines: file.lines,
          gps_problems: JSON.stringify(file.problems),
          sample_count: 'sampleCount' in content ? content.sampleCount : 0,
          // Another trace: its ideal lap is computed again (tracks.service).
          ideal_ms: null,
        };
  await trx
    .insertInto('lap_sessions')
    .values({
      id: s.id,
      device_id: s.deviceId,
      track: s.track,
      date: s.date,
      date_iso: s.dateIso,
      owner_email: s.owner,
      created_at: s.now,
      updated_at: s.now,
      ...fields,
    })
    // The owner is history, set once: never overwritten by a later upload (the service refuses those).
    .onConflict((oc) => oc.column('id').doUpdateSet({ ...fields, updated_at: s.now }))
    .execute();
  if (kind === 'lap' && 'laps' in content) {
    await trx.deleteFrom('laps').where('session_id', '=', s.id).execute();
    const rows = content.laps.map((lap, idx) => ({
      session_id: s.id,
      idx,
      line: lap.line,
      lap_count: lap.lapCount,
      heat: lap.heat,
      lap_time: lap.lapTime,
      lap_time_ms: lap.lapTimeMs,
      lap_seconds: lap.lapSeconds,
      sectors: JSON.stringify(lap.sectors),
      sprint_count: lap.sprintCount,
      distance_m: lap.distanceM,
    }));
    // Chunked: SQLite limits bound parameters per statement.
    for (let i = 0; i < rows.length; i += 50)
      await trx
        .insertInto('laps')
        .values(rows.slice(i, i + 50))
        .execute();
  }
}

/**
 * A page of the rider's own sessions (devices and imports), newest first (an index range, see
 * migration 0009); `after` is where the previous page ended.
 */
export function listOwnSessions(
  db: Kysely<DB>,
  email: string,
  q: { track?: string | undefined; after?: { dateIso: string; id: string } | undefined; limit: number },
) {
  let query = db
    .selectFrom('lap_sessions')
    .select(['id', 'device_id', 'track', 'date', 'date_iso', 'lap_count', 'lap_figures', 'ideal_ms', 'updated_at'])
    .where('owner_email', '=', email);
  if (q.track) query = query.where('track', '=', q.track);
  const after = q.after;
  if (after) query = query.where((eb) => eb.or([eb('date_iso', '<', after.dateIso), eb.and([eb('date_iso', '=', after.dateIso), eb('id', '<', after.id)])]));
  return query.orderBy('date_iso', 'desc').orderBy('id', 'desc').limit(q.limit).execute();
}

/** A session's lap figures, computed once for a row indexed before they were kept (migration 0010). */
export async function saveLapFigures(db: Kysely<DB>, sessionId: string, figures: string): Promise<void> {
  await db.updateTable('lap_sessions').set({ lap_figures: figures }).where('id', '=', sessionId).execute();
}

/** Every session of the rider (at one track, or all), oldest first, with its kept lap figures. */
export function ownSessionFigures(db: Kysely<DB>, email: string, track?: string) {
  let q = db
    .selectFrom('lap_sessions')
    .select(['id', 'device_id', 'track', 'date', 'date_iso', 'lap_count', 'lap_figures', 'ideal_ms'])
    .where('owner_email', '=', email);
  if (track !== undefined) q = q.where('track', '=', track);
  return q.orderBy('date_iso').orderBy('id').execute();
}

/** The tracks the rider has sessions on. */
export async function listOwnTracks(db: Kysely<DB>, email: string): Promise<string[]> {
  const rows = await db.selectFrom('lap_sessions').select('track').distinct().where('owner_email', '=', email).orderBy('track').execute();
  return rows.map((r) => r.track);
}

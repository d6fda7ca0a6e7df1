// SQL of sessions and their laps: the index, who may read which session, and the kept figures.
import { sql, type ExpressionBuilder, type Kysely, type Selectable } from 'kysely';
import type { Lap } from '#core/formats/lap-six.ts';
import { lapFigures } from '#core/laps/lap-math.ts';
import type { LineProblem } from '#core/formats/six-lines.ts';
import { compiledOnce } from '#server/db/compiled-once.ts';
import type { DB, LapSessionsTable } from '#server/db/schema.ts';
import { DEMO_DEVICE_ID } from '#server/lib/demo-accounts.ts';

export type SessionRow = Selectable<LapSessionsTable>;

/**
 * Who may read which sessions: the owner at upload time, everyone for the demo device, admins all
 * but other riders' imports (those are their importer's alone); `system` (recovery) every one.
 */
export interface Viewer {
  email: string;
  admin: boolean;
  system?: boolean;
}

/** Recovery, background analysis and shared links read sessions as the system, not as a person. */
export const SYSTEM_VIEWER: Viewer = { email: '', admin: false, system: true };

/** Import collections are 'imp' + hex; device ids are digits. */
const IMPORT_COLLECTION_PREFIX = 'imp';

function visible(db: Kysely<DB>, viewer: Viewer) {
  let q = db.selectFrom('lap_sessions');
  if (viewer.system) return q;
  if (!viewer.admin) {
    q = q.where((eb) => eb.or([eb('owner_email', '=', viewer.email), eb('device_id', '=', DEMO_DEVICE_ID)]));
  } else {
    q = q.where((eb) =>
      eb.or([eb('owner_email', '=', viewer.email), eb('device_id', 'not like', `${IMPORT_COLLECTION_PREFIX}%`)]),
    );
  }
  return q;
}

export function findSession(db: Kysely<DB>, id: string): Promise<SessionRow | undefined> {
  return db.selectFrom('lap_sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A session by id as each kind of viewer may see it (one query each: `visible` differs). */
const visibleSessionById = {
  rider: compiledOnce(['email', 'id'], (db: Kysely<DB>, v) =>
    visible(db, { email: v.email, admin: false }).selectAll().where('id', '=', v.id),
  ),
  admin: compiledOnce(['email', 'id'], (db: Kysely<DB>, v) =>
    visible(db, { email: v.email, admin: true }).selectAll().where('id', '=', v.id),
  ),
  system: compiledOnce(['id'], (db: Kysely<DB>, v) => visible(db, SYSTEM_VIEWER).selectAll().where('id', '=', v.id)),
};

/** The session `id` if the viewer may see it: read on every request about a session. */
export async function findVisibleSession(db: Kysely<DB>, viewer: Viewer, id: string): Promise<SessionRow | undefined> {
  const rows = viewer.system
    ? await visibleSessionById.system(db, { id })
    : await visibleSessionById[viewer.admin ? 'admin' : 'rider'](db, { email: viewer.email, id });
  return rows[0];
}

/** Whether the viewer owns the device now or holds sessions on it (one query: two EXISTS probes). */
const deviceOfViewer = compiledOnce(['email', 'deviceId'], (db: Kysely<DB>, v) =>
  db.selectNoFrom((eb) =>
    eb
      .or([
        eb.exists(
          db.selectFrom('devices').select('id').where('id', '=', v.deviceId).where('owner_email', '=', v.email),
        ),
        eb.exists(
          db
            .selectFrom('lap_sessions')
            .select('device_id')
            .where('device_id', '=', v.deviceId)
            .where('owner_email', '=', v.email),
        ),
      ])
      .as('ok'),
  ),
);

/** Read on every request about a device (the device check of its routes). */
export async function viewerHasDevice(db: Kysely<DB>, email: string, deviceId: string): Promise<boolean> {
  const [row] = await deviceOfViewer(db, { email, deviceId });
  return row !== undefined && Boolean(Number(row.ok)); // 1/0 on SQLite, true/false on PostgreSQL
}

export async function listVisibleTracks(db: Kysely<DB>, viewer: Viewer, deviceId: string): Promise<string[]> {
  const rows = await visible(db, viewer)
    .select('track')
    .distinct()
    .where('device_id', '=', deviceId)
    .orderBy('track')
    .execute();
  return rows.map((r) => r.track);
}

export async function listVisibleDates(
  db: Kysely<DB>,
  viewer: Viewer,
  deviceId: string,
  track: string,
): Promise<string[]> {
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
    .orderBy(sql`case when device_id = ${DEMO_DEVICE_ID} then 1 else 0 end`)
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
  /** A gps.six kept only as its derived columns (an import's), of this size. */
  onlyColumns?: number | undefined;
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
          // Kept by the lap.six's rules until the one lap list settles them (tracks.service).
          figures_version: null,
        }
      : {
          gps_md5: file.md5,
          gps_size: file.size,
          gps_lines: file.lines,
          gps_problems: JSON.stringify(file.problems),
          gps_from_columns: file.onlyColumns === undefined ? 0 : 1,
          columns_size: file.onlyColumns ?? 0,
          sample_count: 'sampleCount' in content ? content.sampleCount : 0,
          // Another trace: its ideal lap and its figures are computed again (tracks.service).
          ideal_ms: null,
          figures_version: null,
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

/** The rider's sessions with the circuit each was identified at (none yet: null), for the circuit grouping. */
function ownWithCircuit(db: Kysely<DB>, email: string) {
  return db
    .selectFrom('lap_sessions')
    .leftJoin('session_tracks', 'session_tracks.session_id', 'lap_sessions.id')
    .leftJoin('tracks', 'tracks.id', 'session_tracks.track_id')
    .where('lap_sessions.owner_email', '=', email);
}

const ownColumns = [
  'lap_sessions.id',
  'lap_sessions.device_id',
  'lap_sessions.track',
  'lap_sessions.date',
  'lap_sessions.date_iso',
  'lap_sessions.lap_count',
  'lap_sessions.lap_figures',
  'lap_sessions.figures_version',
  'lap_sessions.ideal_ms',
  'lap_sessions.updated_at',
  'session_tracks.track_id as circuit_id',
  'tracks.name as circuit_name',
] as const;

/**
 * Sessions at the circuit a track name stands for (one circuit is one track, whatever each logger
 * calls it): the rider's sessions by that name, and every one identified at a circuit one of those
 * was identified at.
 */
function atCircuitOf(db: Kysely<DB>, email: string, track: string) {
  return (
    eb: ExpressionBuilder<DB & { lap_sessions: LapSessionsTable }, 'lap_sessions' | 'session_tracks' | 'tracks'>,
  ) =>
    eb.or([
      eb('lap_sessions.track', '=', track),
      eb(
        'session_tracks.track_id',
        'in',
        db
          .selectFrom('session_tracks as st')
          .innerJoin('lap_sessions as ls', 'ls.id', 'st.session_id')
          .select('st.track_id')
          .where('ls.owner_email', '=', email)
          .where('ls.track', '=', track),
      ),
    ]);
}

/**
 * A page of the rider's own sessions (devices and imports), newest first (an index range, see
 * migration 0009); `after` is where the previous page ended; `track`: at the circuit it stands for.
 */
export function listOwnSessions(
  db: Kysely<DB>,
  email: string,
  q: { track?: string | undefined; after?: { dateIso: string; id: string } | undefined; limit: number },
) {
  let query = ownWithCircuit(db, email).select(ownColumns);
  if (q.track) query = query.where(atCircuitOf(db, email, q.track));
  const after = q.after;
  if (after)
    query = query.where((eb) =>
      eb.or([
        eb('lap_sessions.date_iso', '<', after.dateIso),
        eb.and([eb('lap_sessions.date_iso', '=', after.dateIso), eb('lap_sessions.id', '<', after.id)]),
      ]),
    );
  return query.orderBy('lap_sessions.date_iso', 'desc').orderBy('lap_sessions.id', 'desc').limit(q.limit).execute();
}

/** A session's lap figures by the lap.six's rules, kept until they are settled (figures_version null). */
export async function saveLapFigures(db: Kysely<DB>, sessionId: string, figures: string): Promise<void> {
  await db
    .updateTable('lap_sessions')
    .set({ lap_figures: figures, figures_version: null })
    .where('id', '=', sessionId)
    .execute();
}

/**
 * A session's figures settled by the current rule, computed from these versions of its files: a
 * file that arrived meanwhile (its figures unsettled again) is not overwritten.
 */
export async function settleLapFigures(
  db: Kysely<DB>,
  sessionId: string,
  files: { lapMd5: string; gpsMd5: string },
  figures: string,
  version: number,
): Promise<void> {
  await db
    .updateTable('lap_sessions')
    .set({ lap_figures: figures, figures_version: version })
    .where('id', '=', sessionId)
    .where('lap_md5', '=', files.lapMd5)
    .where('gps_md5', '=', files.gpsMd5)
    .execute();
}

/** Sessions whose figures were kept by an older rule than `version` (or are not settled yet), a few at a time. */
export function unsettledFigures(db: Kysely<DB>, version: number, limit: number, after = '') {
  return db
    .selectFrom('lap_sessions')
    .select(['id', 'device_id', 'track', 'date'])
    .where((eb) => eb.or([eb('figures_version', 'is', null), eb('figures_version', '<', version)]))
    .where('lap_md5', '!=', '')
    .where('id', '>', after)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Every session of the rider (at the circuit `track` stands for, or all), oldest first, with its kept lap figures. */
export function ownSessionFigures(db: Kysely<DB>, email: string, track?: string) {
  let q = ownWithCircuit(db, email).select(ownColumns);
  if (track !== undefined) q = q.where(atCircuitOf(db, email, track));
  return q.orderBy('lap_sessions.date_iso').orderBy('lap_sessions.id').execute();
}

/** The names the rider's sessions carry, each with the circuit it was identified at (one row per pair). */
export function listOwnCircuits(db: Kysely<DB>, email: string) {
  return ownWithCircuit(db, email)
    .select(['lap_sessions.track', 'session_tracks.track_id as circuit_id', 'tracks.name as circuit_name'])
    .distinct()
    .orderBy('lap_sessions.track')
    .execute();
}

/** The tracks the rider has sessions on. */
export async function listOwnTracks(db: Kysely<DB>, email: string): Promise<string[]> {
  const rows = await db
    .selectFrom('lap_sessions')
    .select('track')
    .distinct()
    .where('owner_email', '=', email)
    .orderBy('track')
    .execute();
  return rows.map((r) => r.track);
}

/** The derived columns' size of a session's gps.six version, once stored (counted in its owner's storage). */
export async function keepColumnsSize(db: Kysely<DB>, id: string, gpsMd5: string, size: number): Promise<void> {
  await db
    .updateTable('lap_sessions')
    .set({ columns_size: size })
    .where('id', '=', id)
    .where('gps_md5', '=', gpsMd5)
    .execute();
}

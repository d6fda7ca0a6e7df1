// SQL of tracks and of which track each session was ridden on.
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { DB, TracksTable } from '#server/db/schema.ts';

export type TrackRow = Selectable<TracksTable>;

export function findTrack(db: Kysely<DB>, id: string): Promise<TrackRow | undefined> {
  return db.selectFrom('tracks').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Tracks whose box, widened by `margin` degrees, holds the point, that a trace of `rider` may be
 * matched to: everyone's and the rider's own (the policy's mayRideTrack, as SQL).
 */
export function tracksNear(
  db: Kysely<DB>,
  lat: number,
  lon: number,
  margin: number,
  rider: string,
): Promise<TrackRow[]> {
  return db
    .selectFrom('tracks')
    .selectAll()
    .where('south', '<=', lat + margin)
    .where('north', '>=', lat - margin)
    .where('west', '<=', lon + margin)
    .where('east', '>=', lon - margin)
    .where((eb) => eb.or([eb('shared', '=', 1), eb('created_by', '=', rider)]))
    .execute();
}

/** Adds a track unless one with its id exists (two instances may meet the same new place at once). */
export async function insertTrack(db: Kysely<DB>, row: Insertable<TracksTable>): Promise<void> {
  await db
    .insertInto('tracks')
    .values(row)
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

export async function updateTrack(
  db: Kysely<DB>,
  id: string,
  change: { gate?: string; sectors?: string; name?: string; shared?: number },
  now: string,
): Promise<TrackRow | undefined> {
  return db
    .updateTable('tracks')
    .set((eb) => ({ ...change, version: eb('version', '+', 1), updated_at: now }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** The track a session was ridden on, with the session's own start/finish as its gate where it has one. */
export async function trackOfSession(db: Kysely<DB>, sessionId: string): Promise<TrackRow | undefined> {
  const row = await db
    .selectFrom('session_tracks')
    .innerJoin('tracks', 'tracks.id', 'session_tracks.track_id')
    .selectAll('tracks')
    .select('session_tracks.gate as session_gate')
    .where('session_tracks.session_id', '=', sessionId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { session_gate, ...track } = row;
  return session_gate ? { ...track, gate: session_gate } : track;
}

/** Ties a session to its track; `gate` (JSON Gate), its own start/finish, is kept unless given (null: none). */
export async function setTrackOfSession(
  db: Kysely<DB>,
  sessionId: string,
  trackId: string,
  gate?: string | null,
): Promise<void> {
  const own = gate === undefined ? {} : { gate };
  await db
    .insertInto('session_tracks')
    .values({ session_id: sessionId, track_id: trackId, ...own })
    .onConflict((oc) => oc.column('session_id').doUpdateSet({ track_id: trackId, ...own }))
    .execute();
}

const LISTED_COLUMNS = [
  'tracks.id',
  'tracks.name',
  'tracks.source',
  'tracks.version',
  'tracks.updated_at',
  'tracks.shared',
  'tracks.created_by',
] as const;

/** Every track with how many sessions were ridden on it, by name. */
export function listTracks(db: Kysely<DB>) {
  return db
    .selectFrom('tracks')
    .leftJoin('session_tracks', 'session_tracks.track_id', 'tracks.id')
    .select((eb) => [...LISTED_COLUMNS, eb.fn.count<number>('session_tracks.session_id').as('sessions')])
    .groupBy(LISTED_COLUMNS)
    .orderBy('tracks.name')
    .execute();
}

/** A session's ideal lap, kept when its analysis is computed (a list reads it without analysing). */
export async function saveSessionIdeal(db: Kysely<DB>, sessionId: string, idealMs: number | null): Promise<void> {
  await db.updateTable('lap_sessions').set({ ideal_ms: idealMs }).where('id', '=', sessionId).execute();
}

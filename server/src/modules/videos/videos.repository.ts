import type { Kysely, Selectable } from 'kysely';
import type { DB, VideoSyncsTable } from '#server/db/schema.ts';

/** A sync as the repository hands it out: the size a number whichever the database. */
export type VideoSyncRow = Omit<Selectable<VideoSyncsTable>, 'size'> & { size: number };

/** A rider's syncs of one session, oldest first. */
export async function listVideoSyncs(db: Kysely<DB>, owner: string, sessionId: string): Promise<VideoSyncRow[]> {
  const rows = await db
    .selectFrom('video_syncs')
    .selectAll()
    .where('owner_email', '=', owner)
    .where('session_id', '=', sessionId)
    .orderBy('updated_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ ...r, size: Number(r.size) }));
}

export async function countVideoSyncs(db: Kysely<DB>, owner: string, sessionId: string): Promise<number> {
  const row = await db
    .selectFrom('video_syncs')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('owner_email', '=', owner)
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Stores a sync, or replaces the one with its id (the rider synced the file again). */
export async function putVideoSync(db: Kysely<DB>, row: VideoSyncRow): Promise<void> {
  const { owner_email: _o, session_id: _s, id: _i, ...changes } = row;
  await db
    .insertInto('video_syncs')
    .values(row)
    .onConflict((oc) => oc.columns(['owner_email', 'session_id', 'id']).doUpdateSet(changes))
    .execute();
}

export async function hasVideoSync(db: Kysely<DB>, owner: string, sessionId: string, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('video_syncs')
    .select('id')
    .where('owner_email', '=', owner)
    .where('session_id', '=', sessionId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

export async function deleteVideoSync(db: Kysely<DB>, owner: string, sessionId: string, id: string): Promise<void> {
  await db
    .deleteFrom('video_syncs')
    .where('owner_email', '=', owner)
    .where('session_id', '=', sessionId)
    .where('id', '=', id)
    .execute();
}

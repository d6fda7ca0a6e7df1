// SQL of imports: each rider's import collection and the raw files kept for each imported session.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB, ImportFilesTable } from '#server/db/schema.ts';

export type ImportFileRow = Selectable<ImportFilesTable>;

export async function findCollection(db: Kysely<DB>, owner: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('import_collections')
    .select('id')
    .where('owner_email', '=', owner)
    .executeTakeFirst();
  return row?.id;
}

/** The owner's collection, created with `id` if it has none yet (another instance may have done it). */
export async function ensureCollection(db: Kysely<DB>, owner: string, id: string, now: string): Promise<string> {
  await db
    .insertInto('import_collections')
    .values({ owner_email: owner, id, created_at: now })
    .onConflict((oc) => oc.column('owner_email').doNothing())
    .execute();
  return (await findCollection(db, owner))!;
}

export function findImportFile(db: Kysely<DB>, owner: string, md5: string): Promise<ImportFileRow | undefined> {
  return db
    .selectFrom('import_files')
    .selectAll()
    .where('owner_email', '=', owner)
    .where('md5', '=', md5)
    .executeTakeFirst();
}

export function listImportFiles(db: Kysely<DB>, sessionId: string): Promise<ImportFileRow[]> {
  return db.selectFrom('import_files').selectAll().where('session_id', '=', sessionId).orderBy('created_at').execute();
}

export async function recordImportFile(db: Kysely<DB>, row: ImportFileRow): Promise<void> {
  await db
    .insertInto('import_files')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['owner_email', 'md5']).doUpdateSet({ answer: row.answer, session_id: row.session_id }),
    )
    .execute();
}

/** An imported session and everything indexed of it (its blobs are the service's to delete). */
export async function deleteImportedSession(db: Kysely<DB>, sessionId: string): Promise<void> {
  await db.deleteFrom('import_files').where('session_id', '=', sessionId).execute();
  // Its share links go with it (a recreated session of the same day is not what they showed).
  await db.deleteFrom('shares').where('session_id', '=', sessionId).execute();
  // Every rider's video syncs of it: a session re-imported at the same address starts with none.
  await db.deleteFrom('video_syncs').where('session_id', '=', sessionId).execute();
  await db.deleteFrom('session_tracks').where('session_id', '=', sessionId).execute();
  await db.deleteFrom('laps').where('session_id', '=', sessionId).execute();
  await db.deleteFrom('lap_sessions').where('id', '=', sessionId).execute();
}

/** A collection's sessions, the most recently changed first. */
export function recentSessionsOf(db: Kysely<DB>, collection: string, limit: number) {
  return db
    .selectFrom('lap_sessions')
    .select(['id', 'track', 'date'])
    .where('device_id', '=', collection)
    .orderBy('updated_at', 'desc')
    .limit(limit)
    .execute();
}

/**
 * What a rider stores, in bytes, as the index records it: the raw files of their imports, and the
 * blobs of the sessions they own (an import's or a device's): lap.six, gps.six where it is a blob
 * of its own, its derived columns.
 */
export async function storedBytesOf(db: Kysely<DB>, owner: string): Promise<{ raw: number; files: number }> {
  const raw = await db
    .selectFrom('import_files')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), eb.lit(0)).as('bytes'))
    .where('owner_email', '=', owner)
    .executeTakeFirstOrThrow();
  const sessions = await db
    .selectFrom('lap_sessions')
    .select(
      sql<number>`coalesce(sum(lap_size + columns_size + case when gps_from_columns = 1 then 0 else gps_size end), 0)`.as(
        'bytes',
      ),
    )
    .where('owner_email', '=', owner)
    .executeTakeFirstOrThrow();
  return { raw: Number(raw.bytes), files: Number(sessions.bytes) };
}

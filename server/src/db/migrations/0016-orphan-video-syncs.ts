import { sql, type Kysely } from 'kysely';

// Frozen in time. Video syncs of sessions deleted before deletes took them along (issue 37): a
// session re-imported at the same address must start with none.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`delete from video_syncs where session_id not in (select id from lap_sessions)`.execute(db);
}

export async function down(): Promise<void> {
  // Nothing to restore: the rows pointed at sessions that no longer exist.
}

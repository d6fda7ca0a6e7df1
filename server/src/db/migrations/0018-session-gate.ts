import type { Kysely } from 'kysely';

// Frozen in time. A session's own start/finish (issue 59): the line its logger timed its laps at,
// where an imported file names it (TrackAddict's `# End Point`), as JSON Gate; null: the track's.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('session_tracks').addColumn('gate', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('session_tracks').dropColumn('gate').execute();
}

import type { Kysely } from 'kysely';

// Frozen in time. The rule each session's kept lap figures were computed by (issue 35): null for
// those kept before (the lap.six alone) or not settled yet since a file arrived; the server
// computes a row again, by its one lap list where it has one, when the number is older than its own.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('lap_sessions').addColumn('figures_version', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('lap_sessions').dropColumn('figures_version').execute();
}

import type { Kysely } from 'kysely';

// Frozen in time. Each session's ideal lap (its best pieces between corners, timed from the GPS
// trace at its track: decision 022), kept when its analysis is computed, so that a list of
// sessions and a progress chart show it without analysing every session they list.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('lap_sessions').addColumn('ideal_ms', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('lap_sessions').dropColumn('ideal_ms').execute();
}

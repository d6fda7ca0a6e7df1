import type { Kysely } from 'kysely';

// Frozen in time. The rider's language and units (issue 38), kept in their profile so they follow
// them to another device: null until the rider chooses (then the request's languages decide).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('language', 'text').execute();
  await db.schema.alterTable('users').addColumn('units', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('units').execute();
  await db.schema.alterTable('users').dropColumn('language').execute();
}

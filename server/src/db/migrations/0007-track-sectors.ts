import type { Kysely } from 'kysely';

// Frozen in time. A track's sector gates (JSON [Gate, …]); '[]' until an admin places them:
// then the track's default ones apply (mid-straight, nearest the quarters of the lap).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('tracks')
    .addColumn('sectors', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tracks').dropColumn('sectors').execute();
}

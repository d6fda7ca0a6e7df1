import type { Kysely } from 'kysely';

// Frozen in time. Non-empty lines per file, so an identical re-send answers from the index.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('lap_sessions')
    .addColumn('lap_lines', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('lap_sessions')
    .addColumn('gps_lines', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('lap_sessions').dropColumn('gps_lines').execute();
  await db.schema.alterTable('lap_sessions').dropColumn('lap_lines').execute();
}

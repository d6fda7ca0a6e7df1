import type { Kysely } from 'kysely';

// Frozen in time. What each session keeps, for the riders' storage quota (issue 58): the size of
// its derived GPS columns, and whether its gps.six is a blob of its own (a device's, exactly as
// sent) or made from those columns when asked (an import's: Voltas wrote it, the columns hold it
// all). Sessions kept before keep their gps.six blob.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('lap_sessions')
    .addColumn('columns_size', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('lap_sessions')
    .addColumn('gps_from_columns', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('lap_sessions').dropColumn('gps_from_columns').execute();
  await db.schema.alterTable('lap_sessions').dropColumn('columns_size').execute();
}

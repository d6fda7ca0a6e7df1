import type { Kysely } from 'kysely';

// Frozen in time. 'Minhas sessões' reads a rider's sessions newest first a page at a time: an index
// range on (owner, date, id) instead of sorting all of them per page.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('lap_sessions_owner_date_idx')
    .on('lap_sessions')
    .columns(['owner_email', 'date_iso', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('lap_sessions_owner_date_idx').execute();
}

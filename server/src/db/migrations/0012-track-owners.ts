import type { Kysely } from 'kysely';

// Frozen in time. Whose a track is: 1 for everyone's (a catalogue circuit, a bundled outline, a
// derived track an admin shared), 0 for its creator's own (`created_by`): a track derived from a
// rider's trace is matched, named and renamed for that rider alone. The derived tracks already
// there become their creator's.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('tracks')
    .addColumn('shared', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  const tracks = db as Kysely<{ tracks: { shared: number; source: string; created_by: string } }>;
  await tracks
    .updateTable('tracks')
    .set({ shared: 0 })
    .where('source', '=', 'derived')
    .where('created_by', '<>', '')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tracks').dropColumn('shared').execute();
}

import type { Kysely } from 'kysely';

// Frozen in time. A rider's history and sharing (issue 24):
// - each session's lap figures (best, ideal, consistency, heats) kept beside it as JSON, written
//   when its lap.six is indexed (null until then, or for rows older than this: computed on the
//   first read and kept), so that a list or a progress chart reads one row per session;
// - links a rider shares: only the hash of the link's secret is stored.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('lap_sessions').addColumn('lap_figures', 'text').execute();
  await db.schema
    .createTable('shares')
    // Public id (listing, revoking); never enough to open the link.
    .addColumn('id', 'text', (c) => c.primaryKey())
    // sha256 of the link's secret, base64url.
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('owner_email', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    // A lap as the screens name it (heat + number, 'A3'), or null for the whole session.
    .addColumn('lap', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .execute();
  await db.schema.createIndex('shares_owner_idx').on('shares').columns(['owner_email', 'created_at']).execute();
  await db.schema
    .createIndex('lap_sessions_owner_track_idx')
    .on('lap_sessions')
    .columns(['owner_email', 'track', 'date_iso'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('lap_sessions_owner_track_idx').execute();
  await db.schema.dropTable('shares').execute();
  await db.schema.alterTable('lap_sessions').dropColumn('lap_figures').execute();
}

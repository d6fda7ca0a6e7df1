import type { Kysely } from 'kysely';

// Frozen in time. Video syncs (issue 37): the rider's video files never reach the server, only how
// each lines up with a session, kept per rider (whoever else may read the session sees none of
// them) so that the same file picked again, on any of the rider's devices, is synced at once.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('video_syncs')
    .addColumn('owner_email', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    // A UUID the rider's browser made.
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    // Bytes: a camera chapter passes 2^32.
    .addColumn('size', 'bigint', (c) => c.notNull())
    // SHA-256 (hex) of the file's first and last MiB and its size.
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    // session UTC ms = video ms + offset_ms (+ drift): past 2^31, and fractional.
    .addColumn('offset_ms', 'double precision', (c) => c.notNull())
    .addColumn('drift_ppm', 'double precision', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('error_ms', 'double precision', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('video_syncs_pk', ['owner_email', 'session_id', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('video_syncs').execute();
}

import type { Kysely } from 'kysely';

// Frozen in time. Sessions riders import from other loggers: each rider's own collection (the
// "device" id their imported sessions live under), and every file imported, by its bytes' MD5.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('import_collections')
    .addColumn('owner_email', 'text', (c) => c.primaryKey())
    // 'imp' + 12 hex digits: never a device id (12 digits).
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('import_files')
    .addColumn('owner_email', 'text', (c) => c.notNull())
    // hex MD5 of the file's bytes as sent (a .gz as the .gz): the same file again is a no-op.
    .addColumn('md5', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    // The raw file, byte for byte, in the blob store.
    .addColumn('blob_key', 'text', (c) => c.notNull())
    // JSON: what the import answered (sent again for the same file).
    .addColumn('answer', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('import_files_pk', ['owner_email', 'md5'])
    .execute();
  await db.schema.createIndex('import_files_session_idx').on('import_files').column('session_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('import_files').execute();
  await db.schema.dropTable('import_collections').execute();
}

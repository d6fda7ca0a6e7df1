import type { Kysely } from 'kysely';

// Frozen in time. One session per device + track + date; laps indexed for fast queries.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('lap_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey()) // `${device}/${track}/${ddmmyyyy}`
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('track', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('date_iso', 'text', (c) => c.notNull())
    .addColumn('owner_email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('lap_md5', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('lap_size', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lap_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lap_problems', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('gps_md5', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('gps_size', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sample_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('gps_problems', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('lap_sessions_owner_idx')
    .on('lap_sessions')
    .columns(['owner_email', 'device_id'])
    .execute();
  await db.schema
    .createIndex('lap_sessions_device_idx')
    .on('lap_sessions')
    .columns(['device_id', 'track', 'date_iso'])
    .execute();

  await db.schema
    .createTable('laps')
    .addColumn('session_id', 'text', (c) => c.notNull().references('lap_sessions.id').onDelete('cascade'))
    .addColumn('idx', 'integer', (c) => c.notNull())
    .addColumn('line', 'integer', (c) => c.notNull())
    .addColumn('lap_count', 'integer', (c) => c.notNull())
    .addColumn('heat', 'text', (c) => c.notNull())
    .addColumn('lap_time', 'text', (c) => c.notNull())
    .addColumn('lap_time_ms', 'integer', (c) => c.notNull())
    .addColumn('lap_seconds', 'double precision', (c) => c.notNull())
    .addColumn('sectors', 'text', (c) => c.notNull())
    .addColumn('sprint_count', 'integer', (c) => c.notNull())
    .addColumn('distance_m', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('laps_pk', ['session_id', 'idx'])
    .execute();

  // Written before a blob is replaced, deleted with the index update: what start-up recovery
  // finishes after a crash between the two.
  await db.schema
    .createTable('upload_intents')
    .addColumn('blob_key', 'text', (c) => c.primaryKey())
    .addColumn('md5', 'text', (c) => c.notNull())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('track', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('owner_email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('upload_intents').execute();
  await db.schema.dropTable('laps').execute();
  await db.schema.dropTable('lap_sessions').execute();
}

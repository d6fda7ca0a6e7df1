import type { Kysely } from 'kysely';

// Frozen in time. Devices in the field (issue 61): each device's latest check-in on its row and a
// bounded history of them, the internal/beta cohort flag on users, signed firmware images, rollouts
// and each device's step in one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('devices').addColumn('hardware_class', 'text').execute();
  for (const [name, type] of [
    ['firmware_slot', 'text'],
    ['pending_verify', 'integer'],
    ['battery', 'double precision'],
    ['charging', 'integer'],
    ['free_storage_kb', 'double precision'],
    ['queued_sessions', 'integer'],
    ['last_upload_error', 'text'],
    ['reset_reason', 'text'],
    ['rssi', 'integer'],
    ['uptime_s', 'double precision'],
    ['checked_in_at', 'text'],
  ] as const) {
    await db.schema.alterTable('devices').addColumn(name, type).execute();
  }
  await db.schema
    .alterTable('users')
    .addColumn('firmware_cohort', 'text', (c) => c.notNull().defaultTo(''))
    .execute();

  await db.schema
    .createTable('device_health')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('battery', 'double precision')
    .addColumn('free_storage_kb', 'double precision')
    .addColumn('queued_sessions', 'integer')
    .addColumn('last_upload_error', 'text')
    .addColumn('reset_reason', 'text')
    .addColumn('rssi', 'integer')
    .addColumn('uptime_s', 'double precision')
    .execute();
  await db.schema.createIndex('device_health_device_idx').on('device_health').columns(['device_id', 'id']).execute();

  await db.schema
    .createTable('firmware')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('class', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('min_from', 'text', (c) => c.notNull())
    .addColumn('expires', 'text', (c) => c.notNull())
    // The exact signed bytes and their signature, handed to devices as they are.
    .addColumn('manifest', 'text', (c) => c.notNull())
    .addColumn('signature', 'text', (c) => c.notNull())
    .addColumn('image_stored', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addUniqueConstraint('firmware_class_seq_unique', ['class', 'seq'])
    .execute();

  await db.schema
    .createTable('rollouts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('firmware_id', 'text', (c) => c.notNull())
    .addColumn('cohorts', 'text', (c) => c.notNull())
    .addColumn('percent', 'double precision', (c) => c.notNull())
    .addColumn('failure_threshold_pct', 'double precision', (c) => c.notNull())
    .addColumn('min_devices', 'integer', (c) => c.notNull())
    .addColumn('min_battery_pct', 'double precision', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('halt_reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('rollout_devices')
    .addColumn('rollout_id', 'text', (c) => c.notNull())
    .addColumn('device_id', 'text', (c) => c.notNull())
    // offered, then the device's reports: downloading … confirmed, rolled-back, failed.
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('downloaded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('offered_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('rollout_devices_pk', ['rollout_id', 'device_id'])
    .execute();
  await db.schema.createIndex('rollout_devices_device_idx').on('rollout_devices').column('device_id').execute();

  // A circuit's pit lane ("Box"), drawn by an admin: entry and exit lines (JSON Gate each).
  await db.schema
    .createTable('pit_lanes')
    .addColumn('track_id', 'text', (c) => c.primaryKey())
    .addColumn('entry', 'text', (c) => c.notNull())
    .addColumn('exit', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['pit_lanes', 'rollout_devices', 'rollouts', 'firmware', 'device_health'])
    await db.schema.dropTable(table).execute();
  await db.schema.alterTable('users').dropColumn('firmware_cohort').execute();
  for (const name of [
    'hardware_class',
    'firmware_slot',
    'pending_verify',
    'battery',
    'charging',
    'free_storage_kb',
    'queued_sessions',
    'last_upload_error',
    'reset_reason',
    'rssi',
    'uptime_s',
    'checked_in_at',
  ])
    await db.schema.alterTable('devices').dropColumn(name).execute();
}

import type { Kysely } from 'kysely';

// Frozen in time. Voltas's own definition of each track (its start/finish gate, where its line
// comes from), and which track each session was ridden on.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tracks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    // 'catalogue' | 'bundled' | 'derived'
    .addColumn('source', 'text', (c) => c.notNull())
    // The catalogue circuit or bundled outline it follows ('' for a derived track).
    .addColumn('outline_id', 'text', (c) => c.notNull().defaultTo(''))
    // 1: driven the way the outline's points go.
    .addColumn('forward', 'integer', (c) => c.notNull().defaultTo(1))
    // JSON { a: {lat, lon}, b: {lat, lon} }
    .addColumn('gate', 'text', (c) => c.notNull())
    // JSON [[lat, lon], …]: a derived track's line (its first day's best lap); '[]' otherwise.
    .addColumn('line', 'text', (c) => c.notNull().defaultTo('[]'))
    // Where it is, to find the tracks near a new trace.
    .addColumn('south', 'double precision', (c) => c.notNull())
    .addColumn('west', 'double precision', (c) => c.notNull())
    .addColumn('north', 'double precision', (c) => c.notNull())
    .addColumn('east', 'double precision', (c) => c.notNull())
    // Bumped when an admin moves a gate: every session's analysis is computed again.
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tracks_place_idx').on('tracks').columns(['south', 'north']).execute();

  await db.schema
    .createTable('session_tracks')
    .addColumn('session_id', 'text', (c) => c.primaryKey().references('lap_sessions.id').onDelete('cascade'))
    .addColumn('track_id', 'text', (c) => c.notNull().references('tracks.id'))
    .execute();
  await db.schema.createIndex('session_tracks_track_idx').on('session_tracks').column('track_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('session_tracks').execute();
  await db.schema.dropTable('tracks').execute();
}

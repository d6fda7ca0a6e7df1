import type { Kysely } from 'kysely';

// Frozen in time: never import app code here. Portable SQL only (SQLite and PostgreSQL).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('email', 'text', (c) => c.primaryKey())
    .addColumn('display_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('avatar_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('adm', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('seller', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('wifi', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('senha_enc', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('nome_piloto', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('numero_moto', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_seller', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_user_seller_idx').on('users').column('user_seller').execute();

  await db.schema
    .createTable('devices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('seller_email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('up', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('version', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('token_hash', 'text', (c) => c.unique())
    .addColumn('last_seen_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('devices_owner_idx').on('devices').column('owner_email').execute();
  await db.schema.createIndex('devices_seller_idx').on('devices').column('seller_email').execute();

  await db.schema
    .createTable('auth_sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_email', 'text', (c) => c.notNull().references('users.email').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('renewed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('auth_sessions_user_idx').on('auth_sessions').column('user_email').execute();

  await db.schema
    .createTable('auth_flows')
    .addColumn('state', 'text', (c) => c.primaryKey())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['auth_flows', 'auth_sessions', 'devices', 'users']) {
    await db.schema.dropTable(t).execute();
  }
}

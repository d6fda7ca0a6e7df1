import type { Kysely } from 'kysely';

// Frozen in time. A share link's name (what the friend who opens it reads) and its secret sealed
// with SECRET_KEY, so the rider can copy the link again from /links (issue 60); the hash stays the
// key it is found by. Links made before this have no sealed secret: they can be revoked, not copied.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('shares').addColumn('name', 'text').execute();
  await db.schema.alterTable('shares').addColumn('sealed_token', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('shares').dropColumn('sealed_token').execute();
  await db.schema.alterTable('shares').dropColumn('name').execute();
}

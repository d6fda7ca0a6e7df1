import { sql, type Kysely } from 'kysely';
import type { BlobStore } from '#server/blobs/blob-store.ts';
import { pendingMigrations } from '#server/db/migrate.ts';
import type { DB } from '#server/db/schema.ts';

/** Whether this instance can serve: its database and blob store answer, its schema is current. */
export function createHealthService(deps: { db: Kysely<DB>; blobs: BlobStore }) {
  return {
    /** Resolves when both answer; rejects with the first that does not. */
    async dependenciesAnswer(): Promise<void> {
      await sql`select 1`.execute(deps.db);
      await deps.blobs.ping();
    },
    /** Migrations this code knows that the database has not run. */
    pendingMigrations: () => pendingMigrations(deps.db),
  };
}

export type HealthService = ReturnType<typeof createHealthService>;

import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config.ts';
import { onPostgres, testDatabaseUrl } from '#test/test-database.ts';
import { createDatabase } from './create-db';

// DATABASE_POOL_SIZE: how many PostgreSQL connections an instance uses at once; requests beyond
// them wait for one. Run on the PostgreSQL pass of npm test.
describe.runIf(onPostgres)('the PostgreSQL pool', () => {
  it('holds DATABASE_POOL_SIZE connections at the same time', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'voltas-pool-'));
    const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: await testDatabaseUrl(), DATABASE_POOL_SIZE: '12' });
    const database = createDatabase({ dataDir, databaseUrl: config.databaseUrl, poolSize: config.databasePoolSize });
    try {
      // Each of 12 pieces of work keeps its connection until all 12 hold one: with fewer
      // connections the eleventh waits for one that is never given back and fails after 5 s
      // (connectionTimeoutMillis), which lets the others go.
      let held = 0;
      let allHeld!: () => void;
      const everyoneHolds = new Promise<void>((resolve) => (allHeld = resolve));
      const backends = await Promise.all(
        Array.from({ length: 12 }, () =>
          database.db
            .connection()
            .execute(async (connection) => {
              const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(connection);
              if (++held === 12) allHeld();
              await everyoneHolds;
              return rows[0]!.pid;
            })
            .catch((err: unknown) => {
              allHeld();
              throw err;
            }),
        ),
      );
      expect(new Set(backends).size).toBe(12);
    } finally {
      await database.close();
    }
  });
});

import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { onPostgres, testDatabaseUrl } from '#test/test-database.ts';
import { createDatabase } from './create-db';

// PostgreSQL cutting a connection the app holds (a restart: 'terminating connection due to
// administrator command') is an error for the work on it, never an unhandled 'error' event that
// ends the process. Run on the PostgreSQL pass of npm test.
const url = await testDatabaseUrl();
const errors: Error[] = [];
const database = createDatabase({
  dataDir: mkdtempSync(path.join(os.tmpdir(), 'voltas-cut-')),
  databaseUrl: url,
  onError: (err) => errors.push(err),
});
afterAll(() => database.close());

/** Terminates every other connection to this database, as a PostgreSQL restart does. */
async function cutConnections(): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
  } finally {
    await admin.end();
  }
}

describe.runIf(onPostgres)('a connection cut while held', () => {
  it('under a key lock (an upload holds one for seconds): the work finishes, the process lives on', async () => {
    const result = await database.coordination.withKeyLock('cut-test', async () => {
      await cutConnections();
      await new Promise((r) => setTimeout(r, 200)); // the 'error' event arrives meanwhile
      return 'finished';
    });
    expect(result).toBe('finished');
    // The lock is usable again on a fresh connection.
    expect(await database.coordination.withKeyLock('cut-test', async () => 'again')).toBe('again');
  });

  it('inside a transaction: the transaction fails, later queries work', async () => {
    await expect(
      database.db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        await cutConnections();
        await new Promise((r) => setTimeout(r, 200));
        await sql`select 1`.execute(trx);
      }),
    ).rejects.toThrow();
    expect((await sql<{ one: number }>`select 1 as one`.execute(database.db)).rows[0]!.one).toBe(1);
    expect(errors.some((e) => /terminating connection/.test(e.message))).toBe(true);
  });
});

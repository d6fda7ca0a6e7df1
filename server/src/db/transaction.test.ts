import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '#test/test-database.ts';
import { createDatabase } from './create-db';
import { migrateToLatest } from './migrate';
import { inTransaction } from './transaction';

const database = createDatabase({
  dataDir: mkdtempSync(path.join(os.tmpdir(), 'voltas-trx-')),
  databaseUrl: await testDatabaseUrl(),
});
afterAll(() => database.close());

describe('inTransaction', () => {
  it("validates maxAttempts with the spec's message", async () => {
    await expect(inTransaction(database.db, async () => 1, { maxAttempts: 0 })).rejects.toThrow(
      'Max attempts must be at least 1',
    );
  });

  it('retries a busy database and commits once', async () => {
    await migrateToLatest(database.db);
    let calls = 0;
    const result = await inTransaction(database.db, async (trx) => {
      calls++;
      if (calls < 3) throw Object.assign(new Error('busy'), { code: 'SQLITE_BUSY' });
      await trx
        .insertInto('users')
        .values({ email: 'trx@example.com', created_at: 'now', updated_at: 'now' })
        .execute();
      return 'done';
    });
    expect(result).toBe('done');
    expect(calls).toBe(3);
    const rows = await database.db.selectFrom('users').select('email').where('email', '=', 'trx@example.com').execute();
    expect(rows).toHaveLength(1);
  });

  it('rolls back and does not retry other errors', async () => {
    let calls = 0;
    await expect(
      inTransaction(database.db, async (trx) => {
        calls++;
        await trx
          .insertInto('users')
          .values({ email: 'rollback@example.com', created_at: 'now', updated_at: 'now' })
          .execute();
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(calls).toBe(1);
    const rows = await database.db
      .selectFrom('users')
      .select('email')
      .where('email', '=', 'rollback@example.com')
      .execute();
    expect(rows).toHaveLength(0);
  });
});

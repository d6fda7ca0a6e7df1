import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../../test/test-database';
import { createDatabase } from './create-db';
import { migrateToLatest } from './migrate';
import { preparedQuery } from './prepared';
import { inTransaction } from './transaction';

// On SQLite, and on PostgreSQL in the second run of npm test.
const database = createDatabase({ dataDir: mkdtempSync(path.join(os.tmpdir(), 'voltas-prepared-')), databaseUrl: await testDatabaseUrl() });
const { db } = database;
afterAll(() => database.close());

beforeAll(async () => {
  await migrateToLatest(db);
  for (const [email, seller] of [
    ['ana@example.com', 'loja@example.com'],
    ['bia@example.com', ''],
    ['caio@example.com', 'loja@example.com'],
  ]) {
    await db.insertInto('users').values({ email: email!, user_seller: seller!, created_at: 'now', updated_at: 'now' }).execute();
  }
});

describe('preparedQuery', () => {
  // Arguments bound out of order and one used twice; the limit stays the query's own constant.
  const bySellerOrEmail = preparedQuery((q, email: string, seller: string) =>
    q
      .selectFrom('users')
      .select('email')
      .where((eb) => eb.or([eb('user_seller', '=', seller), eb('email', '=', email), eb('email', '=', seller)]))
      .orderBy('email')
      .limit(2),
  );

  it('runs with the values of each call, every time', async () => {
    expect(await bySellerOrEmail.all(db, 'bia@example.com', 'nobody@example.com')).toEqual([{ email: 'bia@example.com' }]);
    expect(await bySellerOrEmail.all(db, 'nobody@example.com', 'loja@example.com')).toEqual([{ email: 'ana@example.com' }, { email: 'caio@example.com' }]);
    expect(await bySellerOrEmail.first(db, 'nobody@example.com', 'nobody@example.com')).toBeUndefined();
    // A value that is hostile SQL is only ever a bound value.
    expect(await bySellerOrEmail.all(db, "' or 1=1 --", "x' or '1'='1")).toEqual([]);
  });

  it('is the same SQL as the query built anew', async () => {
    const built = db.selectFrom('users').select('email').where('email', '=', 'caio@example.com');
    const prepared = preparedQuery((q, email: string) => q.selectFrom('users').select('email').where('email', '=', email));
    expect(await prepared.all(db, 'caio@example.com')).toEqual(await built.execute());
  });

  it('inside a transaction, runs on that transaction', async () => {
    const emails = preparedQuery((q, email: string) => q.selectFrom('users').select('email').where('email', '=', email));
    await inTransaction(db, async (trx) => {
      await trx.insertInto('users').values({ email: 'novo@example.com', created_at: 'now', updated_at: 'now' }).execute();
      expect(await emails.first(trx, 'novo@example.com')).toEqual({ email: 'novo@example.com' });
    });
    expect(await emails.first(db, 'novo@example.com')).toEqual({ email: 'novo@example.com' });
  });
});

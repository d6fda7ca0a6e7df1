import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '#test/test-database.ts';
import { compiledOnce } from './compiled-once';
import { createDatabase } from './create-db';
import { migrateToLatest } from './migrate';
import type { DB } from './schema';

// A query built once and run with new values answers as the query built with those values would,
// on SQLite and on PostgreSQL (the second run of npm test); a value it cannot put in its place
// (used inside another value, or not used at all) is refused rather than run wrong.
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'voltas-compiled-once-'));
const database = createDatabase({ dataDir, databaseUrl: await testDatabaseUrl() });
const { db } = database;
afterAll(async () => {
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
});

beforeAll(async () => {
  await migrateToLatest(db);
  for (const email of ['ana@example.com', 'bia@example.com', 'caio@example.com'])
    await db
      .insertInto('users')
      .values({ email, created_at: 'now', updated_at: 'now', adm: email.startsWith('bia') ? '1' : '' })
      .execute();
});

describe('compiledOnce', () => {
  it('runs the query built once with the values of each call', async () => {
    let builds = 0;
    const user = compiledOnce(['email', 'adm'], (d: Kysely<DB>, v) => {
      builds++;
      return d
        .selectFrom('users')
        .select(['email', 'adm'])
        .where('email', '=', v.email)
        .where('adm', '=', v.adm)
        .where('email', '<>', 'caio@example.com');
    });
    expect(await user(db, { email: 'ana@example.com', adm: '' })).toEqual([{ email: 'ana@example.com', adm: '' }]);
    expect(await user(db, { email: 'bia@example.com', adm: '1' })).toEqual([{ email: 'bia@example.com', adm: '1' }]);
    expect(await user(db, { email: 'bia@example.com', adm: '' })).toEqual([]);
    // The query's own value stays as built.
    expect(await user(db, { email: 'caio@example.com', adm: '' })).toEqual([]);
    // A hostile value is a value: nothing of it becomes SQL.
    expect(await user(db, { email: "' or 1=1 --", adm: '' })).toEqual([]);
    expect(builds).toBe(1);
  });

  it('refuses a value used inside another one, or not used', async () => {
    const inside = compiledOnce(['email'], (d: Kysely<DB>, v) =>
      d.selectFrom('users').select('email').where('email', 'like', `${v.email}%`),
    );
    await expect(inside(db, { email: 'ana' })).rejects.toThrow(/must be a value of the query, as is/);
    const unused = compiledOnce(['email', 'adm'], (d: Kysely<DB>, v) =>
      d.selectFrom('users').select('email').where('email', '=', v.email),
    );
    await expect(unused(db, { email: 'ana@example.com', adm: '' })).rejects.toThrow(/must be a value/);
  });
});

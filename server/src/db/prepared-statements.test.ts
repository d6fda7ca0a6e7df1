import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { preparedOnce } from './create-db';

// SQLite's statements prepared once and kept (at most `max`, the least recently used forgotten):
// the same query gives the same statement, and a statement reused after an abandoned stream, a
// failed query or a schema change answers as a fresh one would.
const dir = mkdtempSync(path.join(os.tmpdir(), 'voltas-prepared-'));
const sqlite = new SQLite(path.join(dir, 'db.sqlite'));
afterAll(() => {
  sqlite.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('preparedOnce', () => {
  it('prepares each SQL text once, and keeps no more than it may', () => {
    const database = preparedOnce(sqlite, 2);
    const one = database.prepare('select 1 as n');
    expect(database.prepare('select 1 as n')).toBe(one);
    database.prepare('select 2 as n');
    database.prepare('select 3 as n'); // forgets 'select 1', the least recently used
    expect(database.prepare('select 3 as n')).toBe(database.prepare('select 3 as n'));
    expect(database.prepare('select 1 as n')).not.toBe(one);
    expect(database.prepare('select 1 as n').all([])).toEqual([{ n: 1 }]);
  });

  it('answers through Kysely as before: reads, writes, a stream left half-read, an error, a new column', async () => {
    const db = new Kysely<{ t: { id: number; name: string } }>({
      dialect: new SqliteDialect({ database: preparedOnce(sqlite) }),
    });
    await db.schema
      .createTable('t')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('name', 'text')
      .execute();
    for (let id = 1; id <= 5; id++)
      await db
        .insertInto('t')
        .values({ id, name: `n${id}` })
        .execute();
    const read = () => db.selectFrom('t').selectAll().orderBy('id').execute();
    expect(await read()).toHaveLength(5);
    for await (const row of db.selectFrom('t').selectAll().orderBy('id').stream()) {
      expect(row.id).toBe(1);
      break; // the statement is left mid-iteration
    }
    expect((await read()).map((r) => r.id)).toEqual([1, 2, 3, 4, 5]);
    await expect(db.insertInto('t').values({ id: 1, name: 'again' }).execute()).rejects.toThrow(/UNIQUE/);
    expect((await db.updateTable('t').set({ name: 'x' }).where('id', '=', 2).executeTakeFirst()).numUpdatedRows).toBe(
      1n,
    );
    // A statement prepared before the schema changed sees the change (SQLite prepares it again).
    await sql`alter table t add column lap integer default 7`.execute(db);
    expect((await read())[0]).toEqual({ id: 1, name: 'n1', lap: 7 });
    await db.destroy();
  });
});

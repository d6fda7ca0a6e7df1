import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from './create-db';
import { migrateToLatest } from './migrate';
import { preparedQuery } from './prepared';
import { sqliteReadsOf } from './sqlite-reads';
import { inTransaction } from './transaction';

// The embedded database only: the remembered reads exist there alone (PostgreSQL reads every time).
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'voltas-sqlite-reads-'));
const database = createDatabase({ dataDir });
const { db } = database;
afterAll(() => database.close());

const userByEmail = preparedQuery((q, email: string) => q.selectFrom('users').select(['email', 'adm']).where('email', '=', email));
const turn = () => new Promise((r) => setImmediate(r));

beforeAll(async () => {
  await migrateToLatest(db);
  await db.insertInto('users').values({ email: 'ana@example.com', created_at: 'now', updated_at: 'now' }).execute();
});

describe('remembered SQLite reads', () => {
  it('answers a repeated read from memory, frozen, while nothing changed', async () => {
    const first = await userByEmail.all(db, 'ana@example.com');
    const again = await userByEmail.all(db, 'ana@example.com');
    expect(again).toBe(first); // the same array: not read again
    expect(Object.isFrozen(first) && Object.isFrozen(first[0])).toBe(true);
    expect(sqliteReadsOf(db)).toBeDefined();
  });

  it("sees this process's writes at once", async () => {
    expect(await userByEmail.first(db, 'ana@example.com')).toEqual({ email: 'ana@example.com', adm: '' });
    await db.updateTable('users').set({ adm: '1' }).where('email', '=', 'ana@example.com').execute();
    expect(await userByEmail.first(db, 'ana@example.com')).toEqual({ email: 'ana@example.com', adm: '1' });
    await db.updateTable('users').set({ adm: '' }).where('email', '=', 'ana@example.com').execute();
    expect(await userByEmail.first(db, 'ana@example.com')).toEqual({ email: 'ana@example.com', adm: '' });
  });

  it("sees another process's commit from the next turn of the event loop", async () => {
    expect((await userByEmail.first(db, 'ana@example.com'))?.adm).toBe('');
    await turn();
    // A separate process on the same file, as the `voltas` CLI granting a role would be.
    execFileSync(
      process.execPath,
      [
        '-e',
        `
      const S = require('better-sqlite3');
      const d = new S(${JSON.stringify(path.join(dataDir, 'voltas.sqlite'))});
      d.pragma('busy_timeout = 5000');
      d.prepare("update users set adm = '1' where email = 'ana@example.com'").run();
      d.close();`,
      ],
      { cwd: process.cwd() },
    );
    await turn();
    expect((await userByEmail.first(db, 'ana@example.com'))?.adm).toBe('1');
  });

  it('a key of values cannot collide with another list of values', async () => {
    const pair = preparedQuery((q, a: string, b: string) => q.selectFrom('users').select('email').where('email', '=', a).where('adm', '=', b));
    expect(await pair.all(db, 'ana@example.com', '1')).toHaveLength(1);
    expect(await pair.all(db, 'ana@example.com\u00001', '')).toHaveLength(0);
    expect(await pair.all(db, 'ana@example.com\u00001:1', '')).toHaveLength(0);
  });

  it("never shows a transaction's uncommitted writes, and forgets what a rollback undid", async () => {
    await db.updateTable('users').set({ adm: '' }).where('email', '=', 'ana@example.com').execute();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let inside!: () => void;
    const started = new Promise<void>((r) => (inside = r));
    const trx = inTransaction(
      db,
      async (t) => {
        await t.updateTable('users').set({ adm: '1' }).where('email', '=', 'ana@example.com').execute();
        inside();
        await held;
        throw new Error('roll back');
      },
      { maxAttempts: 1 },
    );
    await started;
    // A read from elsewhere while the transaction is open waits for it, then sees the rollback.
    const outside = userByEmail.first(db, 'ana@example.com');
    release();
    await expect(trx).rejects.toThrow('roll back');
    expect((await outside)?.adm).toBe('');
    expect((await userByEmail.first(db, 'ana@example.com'))?.adm).toBe('');
  });

  it('a prepared query that writes runs every time, through Kysely, and counts as a change', async () => {
    const insert = preparedQuery((q, email: string) => q.insertInto('users').values({ email, created_at: 'now', updated_at: 'now' }).returning('email'));
    expect(await userByEmail.first(db, 'bia@example.com')).toBeUndefined();
    expect(await insert.all(db, 'bia@example.com')).toEqual([{ email: 'bia@example.com' }]);
    await expect(insert.all(db, 'bia@example.com')).rejects.toThrow(/UNIQUE/);
    expect(await userByEmail.first(db, 'bia@example.com')).toEqual({ email: 'bia@example.com', adm: '' });
  });

  it('a committed transaction is seen by the next read', async () => {
    expect((await userByEmail.first(db, 'ana@example.com'))?.adm).toBe('');
    await inTransaction(db, (t) => t.updateTable('users').set({ adm: '1' }).where('email', '=', 'ana@example.com').execute());
    expect((await userByEmail.first(db, 'ana@example.com'))?.adm).toBe('1');
  });
});

import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres, testDatabaseUrl } from '#test/test-database.ts';
import { createDatabase } from '#server/db/create-db.ts';
import { migrateToLatest } from '#server/db/migrate.ts';
import { inTransaction } from '#server/db/transaction.ts';
import { findDeviceByTokenHash } from '../devices/devices.repository';
import { findAuthSession, insertAuthSession } from './auth-sessions.repository';

// The reads every signed-in or device request makes see every change at once: this process's,
// a committed transaction's, another process's (the `voltas` CLI), never an uncommitted one.
// On SQLite, and on PostgreSQL in the second run of npm test.
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'voltas-auth-reads-'));
const database = createDatabase({ dataDir, databaseUrl: await testDatabaseUrl() });
const { db } = database;
afterAll(() => database.close());

const role = async () => (await findAuthSession(db, 'cookie-hash'))?.adm;

beforeAll(async () => {
  await migrateToLatest(db);
  await db.insertInto('users').values({ email: 'ana@example.com', created_at: 'now', updated_at: 'now' }).execute();
  await insertAuthSession(db, {
    idHash: 'cookie-hash',
    email: 'ana@example.com',
    createdAt: 'now',
    expiresAt: '2100-01-01T00:00:00Z',
  });
  await db
    .insertInto('devices')
    .values({
      id: '000000000001',
      owner_email: 'ana@example.com',
      seller_email: '',
      token_hash: 'token-hash',
      name: '',
      created_at: 'now',
    })
    .execute();
});

describe('sign-in and device reads', () => {
  it("see this process's writes on the very next read", async () => {
    expect(await role()).toBe('');
    await db.updateTable('users').set({ adm: '1' }).where('email', '=', 'ana@example.com').execute();
    expect(await role()).toBe('1');
    await db.updateTable('users').set({ adm: '' }).where('email', '=', 'ana@example.com').execute();
    expect(await role()).toBe('');
    await db.updateTable('users').set({ disabled: 1 }).where('email', '=', 'ana@example.com').execute();
    expect((await findDeviceByTokenHash(db, 'token-hash'))?.ownerDisabled).toBe(true);
    await db.updateTable('users').set({ disabled: 0 }).where('email', '=', 'ana@example.com').execute();
    expect((await findDeviceByTokenHash(db, 'token-hash'))?.ownerDisabled).toBe(false);
    await db.deleteFrom('auth_sessions').where('id_hash', '=', 'cookie-hash').execute();
    expect(await findAuthSession(db, 'cookie-hash')).toBeUndefined();
    await insertAuthSession(db, {
      idHash: 'cookie-hash',
      email: 'ana@example.com',
      createdAt: 'now',
      expiresAt: '2100-01-01T00:00:00Z',
    });
  });

  it.skipIf(onPostgres)("see another process's commit (the CLI granting a role) on the next read", async () => {
    expect(await role()).toBe('');
    execFileSync(process.execPath, [
      '-e',
      `const S = require('better-sqlite3');
       const d = new S(${JSON.stringify(path.join(dataDir, 'voltas.sqlite'))});
       d.pragma('busy_timeout = 5000');
       d.prepare("update users set adm = '1' where email = 'ana@example.com'").run();
       d.close();`,
    ]);
    expect(await role()).toBe('1');
    await db.updateTable('users').set({ adm: '' }).where('email', '=', 'ana@example.com').execute();
  });

  it("never see a transaction's uncommitted writes; see a committed one's", async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let inside!: () => void;
    const started = new Promise<void>((r) => (inside = r));
    const rolledBack = inTransaction(
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
    const outside = role();
    release();
    await expect(rolledBack).rejects.toThrow('roll back');
    expect(await outside).toBe('');
    expect(await role()).toBe('');
    await inTransaction(db, (t) =>
      t.updateTable('users').set({ adm: '1' }).where('email', '=', 'ana@example.com').execute(),
    );
    expect(await role()).toBe('1');
  });
});

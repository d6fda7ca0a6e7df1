import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDatabase } from '../db/create-db';
import { hashToken } from '../lib/tokens';
import { migrateToLatest } from '../db/migrate';
import { findUser, upsertUserAtSignIn } from '../modules/users/users.repository';
import { testDatabaseUrl } from '#test/test-database.ts';
import { run } from './voltas';

let dataDir: string;
let databaseUrl: string | undefined;
let out: string[];
let err: string[];

beforeEach(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'voltas-cli-'));
  databaseUrl = await testDatabaseUrl();
  vi.stubEnv('DATA_DIR', dataDir);
  if (databaseUrl) vi.stubEnv('DATABASE_URL', databaseUrl);
  out = [];
  err = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** A rider who has signed in once, as `user role` asks (the user row a sign-in writes), without the whole demo. */
async function signedInOnce(email: string) {
  const database = createDatabase({ dataDir, databaseUrl });
  try {
    await migrateToLatest(database.db);
    await upsertUserAtSignIn(database.db, { email, displayName: '', avatarUrl: '', makeAdmin: false });
  } finally {
    await database.close();
  }
}

async function user(email: string) {
  const database = createDatabase({ dataDir, databaseUrl });
  try {
    return await findUser(database.db, email);
  } finally {
    await database.close();
  }
}

// Each command opens the database anew (migrations; on PostgreSQL new connections) and the demo
// generates its sessions twice: slow beside the browser tests on a busy machine. A wait, not a deadline.
describe('voltas CLI', { timeout: 60_000 }, () => {
  it('demo loads the demo accounts with their roles, and is idempotent', async () => {
    expect(await run(['demo'])).toBe(0);
    expect(await run(['demo'])).toBe(0);
    expect((await user('admin@voltas.local'))?.adm).toBe('1');
    expect((await user('vendedor@voltas.local'))?.seller).toBe('1');
    expect(await user('piloto@voltas.local')).toMatchObject({
      adm: '',
      seller: '',
      user_seller: 'vendedor@voltas.local',
    });
    const database = createDatabase({ dataDir, databaseUrl });
    try {
      const sessions = await database.db.selectFrom('lap_sessions').select(['device_id', 'owner_email']).execute();
      expect(sessions.filter((s) => s.device_id === '000000000001')).toHaveLength(4);
      expect(
        sessions.filter((s) => s.device_id === '000000000042' && s.owner_email === 'piloto@voltas.local'),
      ).toHaveLength(2);
      // The fleet (issue 61): every device with a version and a history, a finished and a halted rollout.
      const devices = await database.db.selectFrom('devices').select(['id', 'version', 'last_seen_at']).execute();
      expect(devices.filter((d) => d.id !== '000000000001').every((d) => d.version && d.last_seen_at)).toBe(true);
      expect(devices.length).toBeGreaterThanOrEqual(9);
      const history = await database.db.selectFrom('device_health').select('device_id').execute();
      expect(history.length).toBe(12 * (devices.length - 1));
      const rollouts = await database.db.selectFrom('rollouts').select(['state']).orderBy('id').execute();
      expect(rollouts.map((r) => r.state)).toEqual(['done', 'halted']);
    } finally {
      await database.close();
    }
  });

  it('user role changes roles and refuses unknown users and bad flags', async () => {
    await signedInOnce('piloto@voltas.local');
    expect(await run(['user', 'role', 'Piloto@Voltas.local', '--adm'])).toBe(0);
    expect((await user('piloto@voltas.local'))?.adm).toBe('1');
    expect(await run(['user', 'role', 'piloto@voltas.local', '--seller'])).toBe(0);
    expect(await user('piloto@voltas.local')).toMatchObject({ adm: '', seller: '1' });
    expect(await run(['user', 'role', 'piloto@voltas.local', '--none'])).toBe(0);
    expect(await user('piloto@voltas.local')).toMatchObject({ adm: '', seller: '' });
    expect(await run(['user', 'role', 'ghost@example.com', '--adm'])).toBe(1);
    expect(err.join('')).toContain('must sign in once first');
    expect(await run(['user', 'role', 'piloto@voltas.local'])).toBe(2);
    expect(await run(['user', 'role', 'piloto@voltas.local', '--none', '--adm'])).toBe(2);
  });

  it('demo --if-empty loads only into an unused data dir; serve never loads demo data (hole 5)', async () => {
    expect(await run(['demo', '--if-empty'])).toBe(0);
    expect((await user('admin@voltas.local'))?.adm).toBe('1');
    expect(await run(['demo', '--if-empty'])).toBe(0);
    expect(out.join('')).toContain('already in use, nothing loaded');
    expect(await run(['serve', '--demo'])).toBe(2);
    expect(err.join('')).toContain('voltas demo --if-empty');
  });

  it('the demo device id is refused by device add, token and owner (hole 7)', async () => {
    for (const args of [
      ['device', 'add', '000000000001', '--owner', 'rider@example.com'],
      ['device', 'token', '000000000001'],
      ['device', 'owner', '000000000001', '--owner', 'rider@example.com'],
    ]) {
      err = [];
      expect(await run(args), args.join(' ')).toBe(1);
      expect(err.join(''), args.join(' ')).toContain('demonstration device');
    }
  });

  it('device owner gives a device to another user and replaces its token', async () => {
    expect(await run(['device', 'add', '000000000777', '--owner', 'first@example.com'])).toBe(0);
    const first = out.join('').trim().split('\n').at(-1)!;
    out = [];
    expect(await run(['device', 'owner', '000000000777', '--owner', 'Second@Example.com'])).toBe(0);
    const second = out.join('').trim().split('\n').at(-1)!;
    expect(second).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(second).not.toBe(first);
    const database = createDatabase({ dataDir, databaseUrl });
    try {
      const device = await database.db
        .selectFrom('devices')
        .selectAll()
        .where('id', '=', '000000000777')
        .executeTakeFirstOrThrow();
      expect(device.owner_email).toBe('second@example.com');
      expect(device.token_hash).toBe(hashToken(second));
    } finally {
      await database.close();
    }
    out = [];
    expect(await run(['device', 'owner', '000000000777', '--owner', 'second@example.com'])).toBe(0);
    expect(out.join('')).toContain('token is unchanged');
    expect(await run(['device', 'owner', '000000000777'])).toBe(2);
  });

  it('serve refuses to put the bundled sign-in on the network (hole 5)', async () => {
    vi.stubEnv('HOST', '0.0.0.0');
    expect(await run(['serve'])).toBe(1);
    expect(err.join('')).toMatch(/only runs on a loopback HOST and PUBLIC_URL.*LOCAL_SIGN_IN=true/);
  });

  it('unknown commands print usage and fail', async () => {
    expect(await run(['frobnicate'])).toBe(2);
    expect(err.join('')).toContain('Usage: voltas');
  });

  it('a bad configuration stops with a clear message', async () => {
    vi.stubEnv('PORT', 'not-a-port');
    expect(await run(['demo'])).toBe(1);
    expect(err.join('')).toContain('PORT');
  });
});

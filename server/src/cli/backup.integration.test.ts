import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSession } from '#core/sim/session-generator.ts';
import { loadTracks } from '../lib/track-files';
import { addDevice, put } from '#test/fixtures.ts';
import { onPostgres } from '#test/test-database.ts';
import { Browser, sameDatabase, startTestServer, type TestServer } from '#test/test-server.ts';
import { runCli } from '#test/cli.ts';

let server: TestServer;
let token: string;
const tmp = mkdtempSync(path.join(os.tmpdir(), 'voltas-backup-'));
const session = generateSession(loadTracks()[2]!, { seed: 71, heats: 2, lapsPerHeat: [3, 4] });
let out: string[];
let err: string[];

beforeAll(async () => {
  server = await startTestServer({}, { inject: true });
  token = await addDevice(server, '000000000080', 'backup@example.com');
  expect((await put(server, '/api/device/v1/sessions/Monza/10112026/lap.six', token, session.lapSix)).status).toBe(200);
  expect((await put(server, '/api/device/v1/sessions/Monza/10112026/gps.six', token, session.gpsSix)).status).toBe(200);
  const rider = new Browser(server);
  await rider.signIn('backup@example.com');
  expect(
    (
      await rider.json('/api/me/profile', {
        method: 'PUT',
        body: JSON.stringify({ wifi: 'Box', senha: 'segredo', nomePiloto: 'Bia', numeroMoto: '5' }),
      })
    ).status,
  ).toBe(200);
});
afterAll(async () => {
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** Every file or folder under `root` (itself included) that someone other than its owner may read. */
function openToOthers(root: string): string[] {
  const found = statSync(root).mode & 0o077 ? [root] : [];
  if (!statSync(root).isDirectory()) return found;
  return [...found, ...readdirSync(root).flatMap((name) => openToOthers(path.join(root, name)))];
}

async function cli(env: Record<string, string>, args: string[]): Promise<number> {
  const r = await runCli(env, args);
  out = [r.out];
  err = [r.err];
  return r.code;
}

describe.skipIf(onPostgres)('voltas backup / restore (embedded setup)', () => {
  it('round trip while the server runs: a restored data dir serves the same laps, GPS and Wi-Fi password', async () => {
    const dir = path.join(tmp, 'b1');
    expect(await cli({ DATA_DIR: server.dataDir }, ['backup', dir])).toBe(0);
    expect(out.join('')).toMatch(/database: voltas.sqlite/);
    // Database, blobs, key and the backup of them: readable by the owner only.
    expect(openToOthers(dir)).toEqual([]);
    expect(openToOthers(path.join(server.dataDir, 'voltas.sqlite'))).toEqual([]);
    const restoredDir = path.join(tmp, 'restored');
    expect(await cli({ DATA_DIR: restoredDir }, ['restore', dir])).toBe(0);
    expect(openToOthers(restoredDir)).toEqual([]);
    const copy = await startTestServer({}, { dataDir: restoredDir, inject: true });
    try {
      const a = new Browser(server);
      const b = new Browser(copy);
      await a.signIn('backup@example.com');
      await b.signIn('backup@example.com');
      for (const p of [
        '/api/me',
        '/api/devices/000000000080/sessions/Monza/10112026/laps',
        '/api/devices/000000000080/sessions/Monza/10112026/analysis',
      ]) {
        expect((await b.json(p)).body, p).toEqual((await a.json(p)).body);
      }
      expect((await b.json('/api/me')).body.profile.senha).toBe('segredo');
      const raw = await b.request('/api/devices/000000000080/sessions/Monza/10112026/export/gps.six');
      expect(await raw.text()).toBe(session.gpsSix);
    } finally {
      await copy.close();
    }
  });

  it('a blob newer than the database copy is re-indexed on restore', async () => {
    const dir = path.join(tmp, 'b2');
    expect(await cli({ DATA_DIR: server.dataDir }, ['backup', dir])).toBe(0);
    // Simulate a lap.six replaced between the database copy and the blob copy.
    const fewer = session.lapSix.split('\n').slice(0, 2).join('\n');
    const { LocalBlobStore } = await import('../blobs/local-blob-store');
    await new LocalBlobStore(path.join(dir, 'blobs')).put(
      '000000000080/Monza/10112026/lap.six',
      Buffer.from(fewer),
      'text/plain; charset=utf-8',
    );
    const restoredDir = path.join(tmp, 'restored2');
    expect(await cli({ DATA_DIR: restoredDir }, ['restore', dir])).toBe(0);
    expect(out.join('')).toContain('re-indexed 1 files');
    const copy = await startTestServer({}, { dataDir: restoredDir, inject: true });
    try {
      const b = new Browser(copy);
      await b.signIn('backup@example.com');
      expect((await b.json('/api/devices/000000000080/sessions/Monza/10112026/laps')).body.laps).toHaveLength(2);
    } finally {
      await copy.close();
    }
  });

  it('refuses what it must: a non-empty backup folder, a folder that is no backup, a data dir in use, bad usage', async () => {
    expect(await cli({ DATA_DIR: server.dataDir }, ['backup', server.dataDir])).toBe(1);
    expect(err.join('')).toMatch(/not empty/);
    expect(await cli({ DATA_DIR: path.join(tmp, 'x') }, ['restore', tmp])).toBe(1);
    expect(err.join('')).toMatch(/not a Voltas backup/);
    expect(await cli({ DATA_DIR: server.dataDir }, ['restore', path.join(tmp, 'b1')])).toBe(1);
    expect(err.join('')).toMatch(/already holds a database/);
    expect(await cli({}, ['backup'])).toBe(2);
    expect(await cli({}, ['restore', 'a', 'b'])).toBe(2);
    expect(existsSync(path.join(tmp, 'x', 'voltas.sqlite'))).toBe(false);
  });
});

describe.skipIf(!onPostgres)('voltas backup on PostgreSQL and S3', () => {
  it('says which tools back up what it cannot copy itself', async () => {
    const dir = path.join(tmp, 'pg');
    expect(await cli({ DATA_DIR: server.dataDir, ...sameDatabase(server) }, ['backup', dir])).toBe(0);
    const text = out.join('');
    expect(text).toContain('pg_dump --format=custom');
    if (server.config.s3) expect(text).toContain(`aws s3 sync s3://${server.config.s3.bucket}`);
    expect(readdirSync(dir)).toContain('voltas-backup.json');
    expect(await cli({ DATA_DIR: path.join(tmp, 'pg-restore'), ...sameDatabase(server) }, ['restore', dir])).toBe(1);
    expect(err.join('')).toMatch(/pg_restore/);
  });
});

// Dependency faults with real servers: the server keeps serving and loses nothing when
//   1. PostgreSQL restarts while riders read and devices upload,
//   2. the S3 store is unreachable for a while,
//   3. the data directory fills up (embedded setup; a small tmpfs, when we may mount one).
// Each prints what it did and what was lost (must be nothing); the script fails otherwise.
//
//   npm run faults                       PostgreSQL down 10 s, S3 down 30 s
//   npm run faults -- --outage 3         what npm test runs (both down 3 s)
import { spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import SQLite from 'better-sqlite3';
// @ts-expect-error -- s3rver ships no types; only the constructor, run() and close() are used.
import S3rver from 's3rver';
import { generateSession, type GeneratedSession } from '#core/sim/session-generator.ts';
import { createDatabase } from '#server/db/create-db.ts';
import { migrateToLatest } from '#server/db/migrate.ts';
import { uploadWithRetry } from '#server/cli/simulate.ts';
import { hashToken, newToken } from '#server/lib/tokens.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { insertDevice } from '#server/modules/devices/devices.repository.ts';
import { ensureUser } from '#server/modules/users/users.repository.ts';
import { Browser, freePort } from '#test/test-server.ts';
import { startPostgres } from './postgres.mjs';
import { startServerProcess } from './server-process';

const { values } = parseArgs({ options: { outage: { type: 'string' } } });
const PG_DOWN_S = Number(values.outage ?? 10);
const S3_DOWN_S = Number(values.outage ?? 30);
if (!(PG_DOWN_S > 0 && S3_DOWN_S > 0)) {
  console.error('Usage: faults [--outage SECONDS]');
  process.exit(2);
}

const track = loadTracks()[0]!;
const RIDER = 'faults@example.com';
const DEVICE = '000000000321';
const md5 = (text: string) => createHash('md5').update(text).digest('base64');
const sessions = Array.from({ length: 6 }, (_, i) => ({
  date: `${String(10 + i)}112026`,
  files: generateSession(track, { seed: 300 + i, heats: 1, lapsPerHeat: [3, 4] }),
}));
const problems: string[] = [];
/** The pool must reconnect by itself this soon after PostgreSQL is back. */
const RECOVERY_LIMIT_MS = 10_000;
const note = (line: string) => console.log(`faults: ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Running {
  base: string;
  child: ChildProcess;
  token: string;
  stop(): Promise<void>;
}

/** A database with the rider and their device, then the real server on it in a process of its own. */
async function startServer(env: Record<string, string>): Promise<Running> {
  const token = newToken();
  const database = createDatabase({ dataDir: env.DATA_DIR!, databaseUrl: env.DATABASE_URL });
  await migrateToLatest(database.db);
  await ensureUser(database.db, RIDER);
  await insertDevice(database.db, { id: DEVICE, owner: RIDER, seller: '', tokenHash: hashToken(token) });
  await database.close();
  const { child, base } = await startServerProcess({ LOG_LEVEL: 'fatal', ...env });
  child.once('exit', (code, signal) => {
    if (signal !== 'SIGTERM')
      problems.push(`the server process ended by itself (${code ?? signal}): an app restart would have been needed`);
  });
  return {
    base,
    child,
    token,
    async stop() {
      child.removeAllListeners('exit');
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

const sessionPath = (date: string) => `/api/devices/${DEVICE}/sessions/${encodeURIComponent(track.name)}/${date}`;
const uploadUrl = (base: string, date: string, file: string) =>
  new URL(`${base}/api/device/v1/sessions/${encodeURIComponent(track.name)}/${date}/${file}`);

/** A device uploading a session with the spec's back-off (the simulator's code). */
async function deviceUploads(server: Running, s: { date: string; files: GeneratedSession }): Promise<void> {
  const quiet = { progress: () => undefined };
  for (const [file, body] of [
    ['gps.six', s.files.gpsSix],
    ['lap.six', s.files.lapSix],
  ] as const) {
    const res = await uploadWithRetry(
      uploadUrl(server.base, s.date, file),
      server.token,
      Buffer.from(body),
      file,
      quiet,
    );
    if (res.status !== 200) problems.push(`upload of ${s.date}/${file} ended with HTTP ${res.status}`);
  }
}

/** What the server holds of every session equals what the device sent: nothing lost, nothing half indexed. */
async function checkNothingLost(server: Running, rider: Browser, uploaded: typeof sessions): Promise<number> {
  let checked = 0;
  for (const s of uploaded) {
    const laps = await rider.json(`${sessionPath(s.date)}/laps`);
    if (laps.status !== 200 || laps.body.laps.length !== s.files.laps.length)
      problems.push(`session ${s.date}: laps ${laps.status} ${laps.body?.laps?.length} (sent ${s.files.laps.length})`);
    for (const file of ['gps.six', 'lap.six'] as const) {
      const res = await rider.request(`${sessionPath(s.date)}/export/${file}`);
      const text = await res.text();
      const sent = file === 'gps.six' ? s.files.gpsSix : s.files.lapSix;
      if (res.status !== 200 || md5(text) !== md5(sent))
        problems.push(
          `session ${s.date}/${file}: HTTP ${res.status}, ${md5(text) === md5(sent) ? 'same' : 'other'} bytes than sent`,
        );
      checked++;
    }
  }
  return checked;
}

/** Reads a rider's laps every 50 ms until `until()`, counting answers; each must be 200, or 503 with Retry-After. */
function readWhile(rider: Browser, date: string, until: () => boolean) {
  const seen = new Map<string, number>();
  const goods: number[] = [];
  const done = (async () => {
    while (!until()) {
      const t = Date.now();
      let key: string;
      try {
        const res = await rider.request(`${sessionPath(date)}/laps`);
        await res.arrayBuffer();
        key =
          res.status === 503
            ? res.headers.get('retry-after')
              ? '503 with Retry-After'
              : '503 without Retry-After'
            : String(res.status);
        if (res.status === 200) goods.push(t);
      } catch (err) {
        key = `no answer (${(err as Error).message})`;
      }
      seen.set(key, (seen.get(key) ?? 0) + 1);
      await sleep(50);
    }
  })();
  /** The first 200 at or after `since`. */
  const firstGoodAfter = (since: number) => goods.find((g) => g >= since);
  return { seen, done, firstGoodAfter };
}

async function postgresRestart(): Promise<void> {
  note(`1. PostgreSQL restarted (down ${PG_DOWN_S} s) while a rider reads and the device uploads`);
  const pg = await startPostgres();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'voltas-faults-pg-'));
  const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: pg.url });
  try {
    const rider = new Browser(server.base);
    await rider.signIn(RIDER);
    await deviceUploads(server, sessions[0]!);
    let finished = false;
    const reads = readWhile(rider, sessions[0]!.date, () => finished);
    const uploads = (async () => {
      for (const s of sessions.slice(1, 4)) await deviceUploads(server, s);
    })();
    await sleep(300);
    pg.pause();
    const downAt = Date.now();
    note(`   PostgreSQL stopped (fast shutdown: connections cut)`);
    await sleep(PG_DOWN_S * 1000);
    pg.resume();
    const upAt = Date.now();
    note(`   PostgreSQL back after ${((upAt - downAt) / 1000).toFixed(1)} s`);
    await uploads;
    await sleep(1500);
    finished = true;
    await reads.done;
    const recovered = reads.firstGoodAfter(upAt);
    note(`   rider's reads: ${[...reads.seen].map(([k, v]) => `${v}× ${k}`).join(', ')}`);
    for (const key of reads.seen.keys())
      if (key !== '200' && key !== '503 with Retry-After') problems.push(`PostgreSQL restart: a read answered ${key}`);
    if (recovered === undefined || recovered - upAt > RECOVERY_LIMIT_MS)
      problems.push(`PostgreSQL restart: reads not back within ${RECOVERY_LIMIT_MS / 1000} s of PostgreSQL`);
    else
      note(
        `   reads answered 200 again ${((recovered - upAt) / 1000).toFixed(1)} s after PostgreSQL was back, with no restart of the app`,
      );
    const checked = await checkNothingLost(server, rider, sessions.slice(0, 4));
    const database = createDatabase({ dataDir, databaseUrl: pg.url });
    const halfDone = await database.db.selectFrom('upload_intents').select('blob_key').execute();
    await database.close();
    if (halfDone.length)
      problems.push(
        `PostgreSQL restart: ${halfDone.length} upload(s) half indexed: ${halfDone.map((r) => r.blob_key).join(', ')}`,
      );
    note(
      `   lost: ${problems.length ? 'see below' : `nothing (${checked} files of 4 sessions byte for byte, no upload half indexed)`}`,
    );
  } finally {
    await server.stop();
    pg.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function s3Outage(): Promise<void> {
  note(`2. The S3 store unreachable for ${S3_DOWN_S} s`);
  const s3Dir = mkdtempSync(path.join(os.tmpdir(), 'voltas-faults-s3-'));
  const port = await freePort();
  const startS3 = async () => {
    const s3 = new S3rver({ port, address: '127.0.0.1', directory: s3Dir, silent: true, configureBuckets: [] });
    await s3.run();
    return s3 as { close(): Promise<void> };
  };
  let s3 = await startS3();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  await client.send(new CreateBucketCommand({ Bucket: 'faults' }));
  client.destroy();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'voltas-faults-s3data-'));
  const server = await startServer({
    DATA_DIR: dataDir,
    S3_BUCKET: 'faults',
    S3_ENDPOINT: endpoint,
    S3_FORCE_PATH_STYLE: 'true',
    S3_REQUEST_CHECKSUM: 'when_required',
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
  });
  try {
    const rider = new Browser(server.base);
    await rider.signIn(RIDER);
    await deviceUploads(server, sessions[0]!);
    await s3.close();
    const downAt = Date.now();
    note('   S3 server stopped');
    // One plain attempt: what a device sees while the store is away.
    const attempt = await fetch(uploadUrl(server.base, sessions[4]!.date, 'lap.six'), {
      method: 'PUT',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'text/plain' },
      body: sessions[4]!.files.lapSix,
    });
    const body = (await attempt.json()) as { code?: string; message?: string };
    note(
      `   an upload during the outage: HTTP ${attempt.status}, Retry-After ${attempt.headers.get('retry-after')}, "${body.message}"`,
    );
    if (attempt.status !== 503 || !attempt.headers.get('retry-after'))
      problems.push(
        `S3 outage: an upload answered ${attempt.status} (Retry-After ${attempt.headers.get('retry-after')}), not 503 with Retry-After`,
      );
    // The device keeps trying with the spec's back-off while the store is away.
    const retried = deviceUploads(server, sessions[4]!);
    const reads = readWhile(rider, sessions[0]!.date, () => Date.now() - downAt > S3_DOWN_S * 1000);
    await reads.done;
    note(`   indexed laps read during the outage: ${[...reads.seen].map(([k, v]) => `${v}× ${k}`).join(', ')}`);
    for (const key of reads.seen.keys())
      if (key !== '200') problems.push(`S3 outage: reading indexed laps answered ${key}`);
    s3 = await startS3();
    const upAt = Date.now();
    note(`   S3 server back after ${((upAt - downAt) / 1000).toFixed(1)} s`);
    await retried;
    note(
      `   the device's retried upload went through ${((Date.now() - upAt) / 1000).toFixed(1)} s after the store was back`,
    );
    const checked = await checkNothingLost(server, rider, [sessions[0]!, sessions[4]!]);
    note(
      `   lost: ${problems.length ? 'see below' : `nothing (${checked} files byte for byte; every object in the bucket is the bytes its index names)`}`,
    );
  } finally {
    await server.stop();
    await s3.close().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(s3Dir, { recursive: true, force: true });
  }
}

async function diskFull(): Promise<void> {
  note('3. The data directory full (embedded setup)');
  const mountPoint = mkdtempSync(path.join(os.tmpdir(), 'voltas-faults-disk-'));
  const mounted =
    process.getuid?.() === 0
      ? spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=24m,mode=0700', 'tmpfs', mountPoint], { encoding: 'utf8' })
      : undefined;
  if (!mounted || mounted.status !== 0) {
    note(
      `   skipped: a small filesystem is needed and ${mounted ? `mount failed (${mounted.stderr.trim() || mounted.status})` : 'only root may mount one here'}`,
    );
    rmSync(mountPoint, { recursive: true, force: true });
    return;
  }
  const dataDir = path.join(mountPoint, 'data');
  mkdirSync(dataDir);
  const server = await startServer({ DATA_DIR: dataDir });
  const filler = path.join(mountPoint, 'filler');
  try {
    const rider = new Browser(server.base);
    await rider.signIn(RIDER);
    await deviceUploads(server, sessions[0]!);
    // Fill what is left, to the last byte.
    const fd = openSync(filler, 'w');
    const block = Buffer.alloc(256 * 1024, 1);
    let filled = 0;
    try {
      for (;;) filled += writeSync(fd, block);
    } catch {
      for (let small = 4096; small >= 1; small >>= 1) {
        try {
          for (;;) filled += writeSync(fd, block.subarray(0, small));
        } catch {
          // next smaller size
        }
      }
    }
    closeSync(fd);
    note(`   filled the disk (${(filled / 1024 / 1024).toFixed(1)} MB of filler)`);
    const attempt = await fetch(uploadUrl(server.base, sessions[5]!.date, 'gps.six'), {
      method: 'PUT',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'text/plain' },
      body: sessions[5]!.files.gpsSix,
    });
    const body = (await attempt.json()) as { code?: string; message?: string };
    note(`   an upload on the full disk: HTTP ${attempt.status}, "${body.message}"`);
    if (attempt.status !== 507)
      problems.push(`full disk: an upload answered ${attempt.status} (${body.code}), not 507`);
    const stillThere = await checkNothingLost(server, rider, [sessions[0]!]);
    const check = new SQLite(path.join(dataDir, 'voltas.sqlite'), { readonly: true });
    const integrity = check.pragma('integrity_check', { simple: true });
    check.close();
    note(
      `   while full: the earlier session reads back byte for byte (${stillThere} files), SQLite integrity_check: ${String(integrity)}`,
    );
    if (integrity !== 'ok') problems.push(`full disk: SQLite integrity_check says ${String(integrity)}`);
    rmSync(filler);
    note('   space freed');
    await deviceUploads(server, sessions[5]!);
    const checked = await checkNothingLost(server, rider, [sessions[0]!, sessions[5]!]);
    note(`   uploads work again; lost: ${problems.length ? 'see below' : `nothing (${checked} files byte for byte)`}`);
  } finally {
    await server.stop();
    const unmounted = spawnSync('umount', [mountPoint], { encoding: 'utf8' });
    if (unmounted.status === 0) rmSync(mountPoint, { recursive: true, force: true });
    else note(`   could not unmount ${mountPoint}: ${unmounted.stderr.trim()}`);
  }
}

try {
  await postgresRestart();
  await s3Outage();
  await diskFull();
} catch (err) {
  problems.push(`stopped: ${(err as Error).stack ?? String(err)}`);
}
for (const p of problems) console.error(`✗ ${p}`);
console.log(problems.length ? `faults: ${problems.length} problem(s)` : 'faults: nothing lost');
process.exit(problems.length ? 1 : 0);

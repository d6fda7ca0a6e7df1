// Crash safety: runs the real server as a child process, uploads versions of a few sessions
// through the device API from several clients at once, kills the server with SIGKILL at a random
// moment once an upload of the round has gone through, restarts it, and checks after every restart
// (and that some uploads went through at all) that
//   - every file of every session is one complete version that was sent (index and laps agree),
//   - the database and the blobs agree (same MD5 both ways; no blob the index does not know),
//   - no interrupted upload is left pending and no temporary file remains.
//
//   npm run crash                     50 kills
//   npm run crash -- --kills 5        what npm test runs
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import { parseGpsSix } from '#core/formats/gps-six.ts';
import { parseLapSix } from '#core/formats/lap-six.ts';
import { generateSession } from '#core/sim/session-generator.ts';
import { createDatabase } from '#server/db/create-db.ts';
import { migrateToLatest } from '#server/db/migrate.ts';
import { hashToken, newToken } from '#server/lib/tokens.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { insertDevice } from '#server/modules/devices/devices.repository.ts';
import { ensureUser } from '#server/modules/users/users.repository.ts';

const { values } = parseArgs({
  options: { kills: { type: 'string', default: '50' }, seed: { type: 'string', default: '7' } },
});
const kills = Number(values.kills);
let rnd = Number(values.seed) || 7;
const random = () => (rnd = (rnd * 1103515245 + 12345) % 2147483648) / 2147483648;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const md5 = (b: Buffer | Uint8Array) => createHash('md5').update(b).digest('base64');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'voltas-crash-'));
const blobsDir = path.join(dataDir, 'blobs');

// Versions of each file: any of them may be the final state, never a mix or a part.
const tracks = loadTracks();
const SESSIONS = [
  { device: '000000000501', track: tracks[0]!.name, date: '01112026' },
  { device: '000000000501', track: tracks[1]!.name, date: '02112026' },
  { device: '000000000502', track: tracks[2]!.name, date: '03112026' },
];
interface Version {
  body: Buffer;
  md5: string;
  indexed: number;
}
const versions = new Map<string, Version[]>();
SESSIONS.forEach((s, i) => {
  for (const kind of ['lap', 'gps'] as const) {
    const list: Version[] = [];
    for (let v = 0; v < 4; v++) {
      const g = generateSession(tracks[i]!, { seed: 100 * i + v, heats: 1 + v, hz: v % 2 ? 25 : 10 });
      const body = Buffer.from(kind === 'lap' ? g.lapSix : g.gpsSix);
      const indexed = kind === 'lap' ? parseLapSix(body.toString()).value.length : parseGpsSix(body).value.count;
      list.push({ body, md5: md5(body), indexed });
    }
    versions.set(`${s.device}/${s.track}/${s.date}/${kind}.six`, list);
  }
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

// Devices and tokens, written straight into the database before the first start.
const tokens = new Map<string, string>();
{
  const database = createDatabase({ dataDir });
  await migrateToLatest(database.db);
  await ensureUser(database.db, 'crash@example.com');
  for (const id of new Set(SESSIONS.map((s) => s.device))) {
    const token = newToken();
    tokens.set(id, token);
    await insertDevice(database.db, { id, owner: 'crash@example.com', seller: '', tokenHash: hashToken(token) });
  }
  await database.close();
}

let child: ChildProcess | undefined;
let port = 0;
/** When the running server was started: a temp file older than that is one a kill left behind. */
let startedAt = 0;

async function start(): Promise<void> {
  port = await freePort();
  startedAt = Date.now();
  child = spawn(process.execPath, ['bin/voltas.mjs', 'serve'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child!.stdout!.on('data', (d: Buffer) => d.toString().includes('Voltas is running') && resolve());
    child!.once('exit', (code) => reject(new Error(`server exited (${code}) before listening`)));
  });
}

function upload(key: string, body: Buffer): Promise<number> {
  const [device, track, date, file] = key.split('/');
  return new Promise((resolve) => {
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'PUT',
      path: `/api/device/v1/sessions/${encodeURIComponent(track!)}/${date}/${file}`,
      agent: false,
      headers: {
        'content-type': 'text/plain; charset=utf-8',
        'content-length': body.length,
        authorization: `Bearer ${tokens.get(device!)}`,
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(-1));
    // Sent in pieces, so a kill can land in the middle of a body too.
    let at = 0;
    const next = () => {
      if (at >= body.length) return void req.end();
      const piece = body.subarray(at, at + 256 * 1024);
      at += piece.length;
      if (req.write(piece)) setImmediate(next);
      else req.once('drain', next);
    };
    next();
  });
}

/**
 * The device limits (60 gps.six and 120 lap.six a minute per token) are counted in the database,
 * so they outlive a restart; this script sends far more than a device would, round after round.
 * Rate limiting is not what it tests: each round starts with no hits counted.
 */
function resetRateLimits(): void {
  const db = new SQLite(path.join(dataDir, 'voltas.sqlite'), { fileMustExist: true });
  try {
    db.prepare('delete from rate_limits').run();
  } finally {
    db.close();
  }
}

async function check(round: number): Promise<string[]> {
  const problems: string[] = [];
  const db = new SQLite(path.join(dataDir, 'voltas.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('select id, lap_md5, gps_md5, lap_count, sample_count from lap_sessions').all() as {
      id: string;
      lap_md5: string;
      gps_md5: string;
      lap_count: number;
      sample_count: number;
    }[];
    const known = new Set<string>();
    for (const row of rows) {
      for (const kind of ['lap', 'gps'] as const) {
        const key = `${row.id}/${kind}.six`;
        const indexMd5 = kind === 'lap' ? row.lap_md5 : row.gps_md5;
        if (!indexMd5) continue;
        known.add(key);
        const version = versions.get(key)?.find((v) => v.md5 === indexMd5);
        if (!version) problems.push(`${key}: the index names bytes that were never sent whole (${indexMd5})`);
        const file = path.join(blobsDir, key);
        if (!existsSync(file)) problems.push(`${key}: indexed, but no blob`);
        else if (md5(readFileSync(file)) !== indexMd5) problems.push(`${key}: blob and index differ`);
        const count =
          kind === 'lap'
            ? (db.prepare('select count(*) as n from laps where session_id = ?').get(row.id) as { n: number }).n
            : row.sample_count;
        if (version && count !== version.indexed)
          problems.push(`${key}: ${count} indexed, the version holds ${version.indexed}`);
        if (kind === 'lap' && row.lap_count !== count)
          problems.push(`${key}: lap_count ${row.lap_count} but ${count} laps`);
      }
    }
    for (const key of versions.keys()) {
      if (existsSync(path.join(blobsDir, key)) && !known.has(key))
        problems.push(`${key}: a blob the index does not know`);
    }
    const pending = (db.prepare('select count(*) as n from upload_intents').get() as { n: number }).n;
    if (pending) problems.push(`${pending} interrupted upload(s) left pending after start-up`);
  } finally {
    db.close();
  }
  // Start-up empties the folder: a file older than the restart is one a kill left behind. The
  // restarted server's own background work (a session's analysis reading its GPS columns) may be
  // writing one now: it must be gone within a few seconds.
  const tmp = path.join(blobsDir, '.tmp');
  const inTmp = () => (existsSync(tmp) ? readdirSync(tmp) : []);
  const age = (f: string) => statSync(path.join(tmp, f), { throwIfNoEntry: false })?.mtimeMs ?? Infinity;
  const left = inTmp().filter((f) => age(f) < startedAt);
  if (left.length) problems.push(`temporary files left: ${left.join(', ')}`);
  for (let wait = 0; wait < 50 && inTmp().some((f) => age(f) >= startedAt); wait++) await sleep(100);
  const kept = inTmp().filter((f) => age(f) >= startedAt);
  if (kept.length) problems.push(`temporary files the restarted server kept over 5 s: ${kept.join(', ')}`);
  return problems.map((p) => `after kill ${round}: ${p}`);
}

let completed = 0;
let interrupted = 0;
const allProblems: string[] = [];
const started = Date.now();
try {
  for (let round = 1; round <= kills; round++) {
    resetRateLimits();
    await start();
    allProblems.push(...(await check(round - 1)));
    const keys = [...versions.keys()];
    let stop = false;
    let firstDone!: () => void;
    const oneDone = new Promise<void>((resolve) => (firstDone = resolve));
    const client = async () => {
      while (!stop) {
        const key = keys[Math.floor(random() * keys.length)]!;
        const list = versions.get(key)!;
        const status = await upload(key, list[Math.floor(random() * list.length)]!.body);
        if (status === 200) {
          completed++;
          firstDone();
        } else if (status === -1) interrupted++;
        else allProblems.push(`upload of ${key} answered ${status}`);
      }
    };
    const clients = [client(), client(), client(), client()];
    // Once an upload of the round has gone through (on a busy machine the first take seconds), so
    // that the kill lands among uploads replacing files already stored, not only before any commit.
    await Promise.race([oneDone, sleep(30_000)]);
    await sleep(50 + random() * 900);
    child!.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));
    stop = true;
    await Promise.all(clients);
    process.stdout.write(`\rkill ${round}/${kills}: ${completed} uploads completed, ${interrupted} cut by a kill`);
  }
  await start();
  allProblems.push(...(await check(kills)));
  if (completed === 0) allProblems.push('no upload went through between the kills: nothing stored was put at risk');
  child!.kill('SIGTERM');
  await new Promise((r) => child!.once('exit', r));
} finally {
  if (child && child.exitCode === null) child.kill('SIGKILL');
}
rmSync(dataDir, { recursive: true, force: true });
console.log(
  `\ncrash: ${kills} kills in ${((Date.now() - started) / 1000).toFixed(0)} s; ${completed} uploads completed, ${interrupted} cut by a kill; ${allProblems.length} problems`,
);
for (const p of allProblems) console.error(`✗ ${p}`);
process.exit(allProblems.length ? 1 : 0);

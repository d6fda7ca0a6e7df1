// Load: the real server in a process of its own, N riders for S seconds on loopback, each with a
// device of their own, mixing what a track day does: sign-ins, laps reads, GPS reads, uploads and
// profile reads. Reports the riders' think time, the req/s it gave, p50/p99 per kind, the p99 of
// reads and of sign-ins against their goals (printed, never a failure: timings are not
// assertions), errors, and the server's memory over the run. Fails on any error, or if memory
// keeps growing. The clock starts once the server has finished the background work of the
// sessions uploaded beforehand.
//
// Think time: a rider reads a screen (a lap table, a chart) before the next tap, so each rider
// waits a random time between actions (and before the first), exponentially distributed (riders
// act independently) with a mean of 1.5 s. That is on the busy side of "a few seconds per screen":
// 200 riders ask ~130 requests a second, several times what a paddock of 200 does, and well under
// what the server answers here. `--think 0` is the closed loop instead: every rider fires the next
// request as soon as the last one answers, all 200 start at the same instant, and the server runs
// flat out; its p99 is then mostly the queue (200 requests in flight / throughput), the saturation
// figure, not what a rider feels.
//
//   npm run load                                   200 riders, 60 s, SQLite
//   npm run load -- --postgres                     the same on a throwaway PostgreSQL (scripts/postgres.mjs)
//   npm run load -- --think 0                      saturation: no think time
//   npm run load -- --clients 50 --seconds 10      what npm test runs
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateSession } from '#core/sim/session-generator.ts';
import { createDatabase } from '#server/db/create-db.ts';
import { migrateToLatest } from '#server/db/migrate.ts';
import { hashToken, newToken } from '#server/lib/tokens.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { insertDevice } from '#server/modules/devices/devices.repository.ts';
import { ensureUser } from '#server/modules/users/users.repository.ts';
import { Browser } from '#test/test-server.ts';
import { startPostgres } from './postgres.mjs';

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '60' },
    postgres: { type: 'boolean', default: false },
    think: { type: 'string', default: '1500' },
  },
});
const CLIENTS = Number(values.clients);
const SECONDS = Number(values.seconds);
/** Mean think time between a rider's actions, ms (0: none, the closed loop at full throughput). */
const THINK_MS = Number(values.think);
if (!(CLIENTS > 0 && SECONDS > 0 && THINK_MS >= 0)) {
  console.error('Usage: load [--clients N] [--seconds S] [--think MEAN_MS] [--postgres]');
  process.exit(2);
}
/** A rider's pause before the next action: exponential with mean THINK_MS, never past the end of the run. */
const think = () => {
  if (THINK_MS === 0) return undefined;
  const pause = Math.min(-THINK_MS * Math.log(1 - Math.random()), Math.max(0, deadline - Date.now()));
  return new Promise((r) => setTimeout(r, pause));
};

/** What a rider feels (issue 36): p99 of the reads and of a whole sign-in, ms. */
const GOALS = { reads: 300, signIn: 1000 };
const READS: Kind[] = ['laps', 'gps.bin', 'me'];

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'voltas-load-'));
const pgServer = values.postgres ? await startPostgres() : undefined;
const databaseUrl = pgServer?.url;
const MB = 1024 * 1024;
const track = loadTracks()[0]!;
const sessionFiles = [0, 1, 2].map((seed) => generateSession(track, { seed, heats: 2, lapsPerHeat: [4, 6] }));
const deviceOf = (i: number) => `0000009${String(i).padStart(5, '0')}`;
const emailOf = (i: number) => `load${i}@example.com`;
const tokens: string[] = [];

{
  const database = createDatabase({ dataDir, databaseUrl });
  await migrateToLatest(database.db);
  for (let i = 0; i < CLIENTS; i++) {
    await ensureUser(database.db, emailOf(i));
    const token = newToken();
    tokens.push(token);
    await insertDevice(database.db, { id: deviceOf(i), owner: emailOf(i), seller: '', tokenHash: hashToken(token) });
  }
  await database.close();
}

const port = await new Promise<number>((resolve) => {
  const srv = createServer();
  srv.listen(0, '127.0.0.1', () => {
    const { port: p } = srv.address() as { port: number };
    srv.close(() => resolve(p));
  });
});
const base = `http://127.0.0.1:${port}`;
const metricsPort = await new Promise<number>((resolve) => {
  const srv = createServer();
  srv.listen(0, '127.0.0.1', () => {
    const { port: p } = srv.address() as { port: number };
    srv.close(() => resolve(p));
  });
});
// TRUST_PROXY: each client comes with an address of its own (X-Forwarded-For), as behind a
// proxy at a track, so per-address sign-in limits apply per rider, not to the whole test.
const child: ChildProcess = spawn(process.execPath, ['bin/voltas.mjs', 'serve'], {
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'error',
    TRUST_PROXY: '1',
    METRICS_PORT: String(metricsPort),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
await new Promise<void>((resolve, reject) => {
  child.stdout!.on('data', (d: Buffer) => d.toString().includes('Voltas is running') && resolve());
  child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
});
/** The server process's CPU time so far, s (utime + stime, in clock ticks of 1/100 s). */
const cpuSeconds = () => {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) * 1024;

class Client extends Browser {
  constructor(private readonly ip: string) {
    super(base);
  }
  override request(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('x-forwarded-for', this.ip);
    return super.request(url, { ...init, headers });
  }
}

type Kind = 'sign-in' | 'laps' | 'gps.bin' | 'upload' | 'me';
const latencies = new Map<Kind, number[]>();
const errors: string[] = [];
const record = (kind: Kind, ms: number) => (latencies.get(kind) ?? latencies.set(kind, []).get(kind)!).push(ms);

async function timed(kind: Kind, work: () => Promise<Response>, ok = 200): Promise<void> {
  const t0 = performance.now();
  try {
    const res = await work();
    await res.arrayBuffer();
    if (res.status !== ok) errors.push(`${kind}: HTTP ${res.status}`);
  } catch (err) {
    errors.push(`${kind}: ${(err as Error).message}`);
  }
  record(kind, performance.now() - t0);
}

async function upload(i: number, date: string, body: string): Promise<Response> {
  return fetch(`${base}/api/device/v1/sessions/${encodeURIComponent(track.name)}/${date}/lap.six`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${tokens[i]}`, 'content-type': 'text/plain; charset=utf-8' },
    body,
  });
}

// Every device has a session with GPS before the clock starts.
for (let i = 0; i < CLIENTS; i += 20) {
  await Promise.all(
    Array.from({ length: Math.min(20, CLIENTS - i) }, async (_, k) => {
      const f = sessionFiles[(i + k) % sessionFiles.length]!;
      await upload(i + k, '01112026', f.lapSix);
      await fetch(`${base}/api/device/v1/sessions/${encodeURIComponent(track.name)}/01112026/gps.six`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${tokens[i + k]}`, 'content-type': 'text/plain; charset=utf-8' },
        body: f.gpsSix,
      });
    }),
  );
}

// Each upload above queued the analysis of its session (run a few seconds later): the clock starts
// once the server has run no job for 5 s (a track day's sessions are uploaded before the riders open
// them), so the figures are the mix's own, not those of 200 analyses still running.
const settleStart = performance.now();
const jobRuns = async () => {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  return [...text.matchAll(/^voltas_job_runs_total\{[^}]*\} (\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
};
for (let runs = -1, quiet = 0; quiet < 5 && performance.now() - settleStart < 180_000;) {
  await new Promise((r) => setTimeout(r, 1000));
  const now = await jobRuns();
  quiet = now === runs ? quiet + 1 : 0;
  runs = now;
}
console.log(`background work of the setup done in ${((performance.now() - settleStart) / 1000).toFixed(0)} s`);

const memory: number[] = [];
const sampler = setInterval(() => memory.push(rss()), 250);
const deadline = Date.now() + SECONDS * 1000;

const started = performance.now();
const cpuAtStart = cpuSeconds();

async function rider(i: number): Promise<void> {
  const client = new Client(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
  const sessionPath = `/api/devices/${deviceOf(i)}/sessions/${encodeURIComponent(track.name)}/01112026`;
  const signIn = () =>
    timed('sign-in', async () => {
      const res = await client.signIn(emailOf(i));
      // The callback redirects either way: to the app, or to the popup page with ?erro=<code>.
      const erro = new URL(res.headers.get('location') ?? '/', base).searchParams.get('erro');
      if (erro) errors.push(`sign-in: ${erro}`);
      return new Response(null, { status: res.status === 303 || res.status === 302 ? 200 : res.status });
    });
  await think();
  await signIn();
  let n = 0;
  while (Date.now() < deadline) {
    await think();
    if (Date.now() >= deadline) break;
    const r = Math.random();
    n++;

    if (r < 0.55) await timed('laps', () => client.request(`${sessionPath}/laps`));
    else if (r < 0.75)
      await timed('gps.bin', () =>
        client.request(`${sessionPath}/gps.bin`, { headers: { 'accept-encoding': 'gzip' } }),
      );
    else if (r < 0.85)
      await timed('upload', () =>
        upload(i, `${String(2 + (n % 27)).padStart(2, '0')}112026`, sessionFiles[n % 3]!.lapSix),
      );
    else if (r < 0.97) await timed('me', () => client.request('/api/me'));
    else {
      await client.json('/api/auth/logout', { method: 'POST', body: '{}' });
      await signIn();
    }
  }
}

try {
  await Promise.all(Array.from({ length: CLIENTS }, (_, i) => rider(i)));
} finally {
  clearInterval(sampler);
}
const seconds = (performance.now() - started) / 1000;
const cpu = cpuSeconds() - cpuAtStart;
const loadAverage = os.loadavg()[0]!;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};
const total = [...latencies.values()].reduce((sum, xs) => sum + xs.length, 0);
const thinking = THINK_MS > 0 ? `think time exponential, mean ${THINK_MS} ms` : 'no think time (saturation)';
console.log(
  `load: ${CLIENTS} riders, ${thinking}, ${seconds.toFixed(0)} s on ${databaseUrl ? 'PostgreSQL' : 'SQLite'}: ${total} requests (a sign-in counts once), ${(total / seconds).toFixed(0)} req/s achieved, ${errors.length} errors`,
);
// The server's own CPU per request does not depend on what else runs on the machine; the latencies do.
console.log(
  `server CPU ${cpu.toFixed(1)} s (${((100 * cpu) / seconds).toFixed(0)} % of one core), ${((1000 * cpu) / total).toFixed(2)} ms a request; machine load average ${loadAverage.toFixed(1)} on ${os.availableParallelism()} cores`,
);
console.log('| kind | requests | p50 ms | p99 ms |\n|---|---|---|---|');
for (const [kind, xs] of latencies)
  console.log(`| ${kind} | ${xs.length} | ${pct(xs, 50).toFixed(1)} | ${pct(xs, 99).toFixed(1)} |`);
const reads = READS.flatMap((k) => latencies.get(k) ?? []);
const signIns = latencies.get('sign-in') ?? [];
const goal = (name: string, xs: number[], ms: number) =>
  console.log(
    `${name} p99 ${pct(xs, 99).toFixed(0)} ms (${xs.length} requests), goal < ${ms} ms: ${pct(xs, 99) < ms ? 'met' : 'MISSED'}`,
  );
goal(`reads (${READS.join(', ')})`, reads, GOALS.reads);
goal('sign-in (the whole flow)', signIns, GOALS.signIn);
// Memory: the first fifth of the run warms caches and pools; after that it should stay level. A
// leak keeps growing to the end; a heap that steps up once on the way (V8 enlarging its spaces
// under a faster load) does not: both the whole rise and the rise over the last two thirds count.
const warm = memory.slice(Math.floor(memory.length / 5));
const third = Math.max(1, Math.floor(warm.length / 3));
const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const atFirst = avg(warm.slice(0, third));
const atMiddle = warm.length >= 2 * third ? avg(warm.slice(third, 2 * third)) : atFirst;
const atLast = avg(warm.slice(-third));
console.log(
  `server memory (RSS): ${(Math.min(...memory) / MB).toFixed(0)}–${(Math.max(...memory) / MB).toFixed(0)} MB; after warm-up ${(atFirst / MB).toFixed(0)} → ${(atMiddle / MB).toFixed(0)} → ${(atLast / MB).toFixed(0)} MB`,
);
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
rmSync(dataDir, { recursive: true, force: true });
pgServer?.stop();
const uniqueErrors = [...new Set(errors)];
for (const e of uniqueErrors.slice(0, 20)) console.error(`✗ ${e} (${errors.filter((x) => x === e).length}×)`);
const limit = Math.max(64 * MB, 0.25 * atFirst);
const leaking = atLast - atFirst > limit && atLast - atMiddle > limit / 2;
if (leaking) console.error(`✗ memory grew by ${((atLast - atFirst) / MB).toFixed(0)} MB after warm-up`);
process.exit(errors.length || leaking ? 1 : 0);

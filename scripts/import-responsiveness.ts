// Whether the server stays responsive while it imports a file of the largest size it takes: the
// real server in a process of its own imports a 256 MiB RaceChrono CSV (generated: a 50 Hz day
// at Interlagos) while /api/health is asked every 10 ms. Prints the health latency before and
// during the import (p50, p99, max) and the import's own time. Passes when the p99 during the
// import stays under 100 ms.
//
// With --session N: a session of many files (issue 58) instead, as large as a session may be:
// one 100 Hz day of as many fixes as a session takes (1,080,000) cut into N files of that day,
// imported one after another (each read again and merged with the ones before in a worker), then
// one more, which the session refuses. Prints each import's time, the health latency over all of
// them, and the server process's peak memory.
//
//   npm run import-responsiveness                  256 MiB
//   npm run import-responsiveness -- --mb 64      a smaller file
//   npm run import-responsiveness -- --session 20 a session of 20 files
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { GPS_COLUMN_KEYS, type GpsColumns } from '#core/formats/gps-columns.ts';
import { parseGpsSix } from '#core/formats/gps-six.ts';
import { writeRaceChrono } from '#core/imports/test-support/writers.ts';
import { generateSession } from '#core/sim/session-generator.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { DEFAULT_SESSION_BOUNDS } from '#server/modules/imports/session-merge.ts';
import { Browser } from '#test/test-server.ts';
import { startServerProcess } from './server-process';

const { values } = parseArgs({ options: { mb: { type: 'string', default: '256' }, session: { type: 'string' } } });
const MB = Number(values.mb);
const FILES = values.session === undefined ? 0 : Number(values.session);
if (
  !(MB > 0 && MB <= 256) ||
  !(Number.isInteger(FILES) && FILES >= 0 && FILES <= DEFAULT_SESSION_BOUNDS.maxSessionFiles)
) {
  console.error(`Usage: import-responsiveness [--mb 1..256] [--session 2..${DEFAULT_SESSION_BOUNDS.maxSessionFiles}]`);
  process.exit(2);
}
const P99_LIMIT_MS = 100;

/** Samples `from` to `to` of the columns (views), their times moved on by `laterMs`. */
function sliceColumns(c: GpsColumns, from: number, to: number, laterMs = 0): GpsColumns {
  const piece = { ...c, count: to - from } as GpsColumns;
  for (const k of GPS_COLUMN_KEYS) (piece as unknown as Record<string, unknown>)[k] = c[k].subarray(from, to);
  if (laterMs) piece.timeMs = piece.timeMs.map((t) => t + laterMs);
  return piece;
}
const POLL_EVERY_MS = 10;

const dir = mkdtempSync(path.join(os.tmpdir(), 'voltas-responsiveness-'));
const file = path.join(dir, 'session.csv');
/** The files of the session (--session), in the order they are imported. */
const sessionFiles: string[] = [];
if (FILES) {
  const t = performance.now();
  const track = loadTracks().find((x) => x.name === 'Interlagos')!;
  // 100 Hz laps of ~100 s: 108 laps are about as many fixes as a session takes.
  const g = generateSession(track, { seed: 9, hz: 100, heats: 4, lapsPerHeat: [28, 28] });
  const c = parseGpsSix(g.gpsSix).value;
  const per = Math.floor(Math.min(c.count, DEFAULT_SESSION_BOUNDS.maxSessionFixes) / FILES);
  for (let k = 0; k <= FILES; k++) {
    // The last (one more than the session takes) repeats the first piece's times a little later: new bytes.
    const piece = k < FILES ? sliceColumns(c, k * per, (k + 1) * per) : sliceColumns(c, 0, per, 1);
    const name = path.join(dir, `heat-${String(k + 1).padStart(2, '0')}.csv`);
    writeFileSync(name, writeRaceChrono(piece, { y: 2026, m: 11, d: 15 }));
    sessionFiles.push(name);
  }
  console.log(
    `import-responsiveness: ${FILES} + 1 RaceChrono CSVs of ${per} fixes (${(statSync(sessionFiles[0]!).size / 1024 / 1024).toFixed(1)} MiB each) written in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
} else {
  const t = performance.now();
  const track = loadTracks().find((x) => x.name === 'Interlagos')!;
  const hz = MB > 128 ? 50 : 25;
  const c = parseGpsSix(generateSession(track, { seed: 8, hz, heats: 4, lapsPerHeat: [62, 62] }).gpsSix).value;
  const text = writeRaceChrono(c, { y: 2026, m: 11, d: 15 });
  // Whole lines, up to the size asked (a MiB short of the limit, so it is taken).
  const limit = Math.min(text.length, MB * 1024 * 1024 - (MB === 256 ? 1 << 20 : 0));
  writeFileSync(file, text.slice(0, text.lastIndexOf('\n', limit) + 1));
  console.log(
    `import-responsiveness: ${(statSync(file).size / 1024 / 1024).toFixed(1)} MiB RaceChrono CSV written in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
}

const { child, base } = await startServerProcess({ DATA_DIR: path.join(dir, 'data'), LOG_LEVEL: 'error' });
const rider = new Browser(base);
await rider.signIn('rider@example.com');

/** /api/health asked one after another, every POLL_EVERY_MS, until `stop()`: each answer's latency. */
async function pollHealth(stop: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  while (!stop()) {
    const t = performance.now();
    const res = await fetch(`${base}/api/health`);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`/api/health: HTTP ${res.status}`);
    latencies.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, POLL_EVERY_MS));
  }
  return latencies;
}

function postFile(upload = file): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      new URL(`/api/imports?filename=${encodeURIComponent(path.basename(upload))}`, base),
      {
        method: 'POST',
        headers: { cookie: rider.cookieHeader(), 'content-type': 'text/csv', 'content-length': statSync(upload).size },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    createReadStream(upload).pipe(req);
  });
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const pct = (p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
  return { n: s.length, p50: pct(50), p99: pct(99), max: s.at(-1) ?? 0 };
};
const line = (what: string, xs: number[]) => {
  const s = stats(xs);
  return `${what}: ${s.n} requests, p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, max ${s.max.toFixed(1)} ms`;
};

/** The server process's peak resident memory, MB (Linux), its workers' included. */
function peakMb(): string {
  try {
    const kb = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
    return kb ? `${Math.round(Number(kb) / 1024)} MB` : '?';
  } catch {
    return '?';
  }
}

/** --session: the files one after another, /api/health asked all the while. */
async function importSession(): Promise<boolean> {
  const idleUntil = performance.now() + 2000;
  const idle = await pollHealth(() => performance.now() > idleUntil);
  let done = false;
  const answers: { status: number; code?: string; files?: number; samples?: number; ms: number }[] = [];
  const importing = (async () => {
    for (const upload of sessionFiles) {
      const t = performance.now();
      const answer = await postFile(upload);
      const parsed = JSON.parse(answer.body) as { code?: string; files?: number; samples?: number };
      answers.push({ status: answer.status, ...parsed, ms: performance.now() - t });
      const a = answers.at(-1)!;
      console.log(
        `  ${path.basename(upload)}: HTTP ${a.status} in ${(a.ms / 1000).toFixed(1)} s${a.files ? ` (${a.files} files, ${a.samples} samples)` : ''}${a.code ? ` ${a.code}` : ''}`,
      );
    }
  })().finally(() => (done = true));
  const [, during] = await Promise.all([importing, pollHealth(() => done)]);
  console.log(line('health, idle', idle));
  console.log(line(`health, during the ${sessionFiles.length} imports`, during));
  console.log(`server process peak memory: ${peakMb()}`);
  const taken = answers.slice(0, FILES).every((a) => a.status === 201);
  const refused = answers.at(-1)!.status === 409 && answers.at(-1)!.code === 'import/session-full';
  const ok = taken && refused && stats(during).p99 < P99_LIMIT_MS;
  if (!ok)
    console.error(
      `✗ the ${FILES} files must be taken, the one more refused (409), and /api/health's p99 stay under ${P99_LIMIT_MS} ms`,
    );
  return ok;
}

/** One file of the largest size, /api/health asked all the while. */
async function importOne(): Promise<boolean> {
  const idleUntil = performance.now() + 2000;
  const idle = await pollHealth(() => performance.now() > idleUntil);
  let done = false;
  const t = performance.now();
  const [answer, during] = await Promise.all([postFile().finally(() => (done = true)), pollHealth(() => done)]);
  const importMs = performance.now() - t;
  const parsed = JSON.parse(answer.body) as { samples?: number; laps?: unknown[]; code?: string };
  console.log(
    `import: HTTP ${answer.status} in ${(importMs / 1000).toFixed(1)} s (${parsed.samples ?? 0} samples, ${parsed.laps?.length ?? 0} laps${parsed.code ? `, ${parsed.code}` : ''})`,
  );
  console.log(line('health, idle', idle));
  console.log(line('health, during the import', during));
  const ok = answer.status === 201 && stats(during).p99 < P99_LIMIT_MS;
  if (!ok) console.error(`✗ the import must succeed and /api/health's p99 during it stay under ${P99_LIMIT_MS} ms`);
  return ok;
}

let ok = false;
try {
  ok = FILES ? await importSession() : await importOne();
} finally {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
}
process.exit(ok ? 0 : 1);

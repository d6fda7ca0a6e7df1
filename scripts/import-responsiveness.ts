// Whether the server stays responsive while it imports a file of the largest size it takes: the
// real server in a process of its own imports a 256 MiB RaceChrono CSV (generated: a 50 Hz day
// at Interlagos) while /api/health is asked every 10 ms. Prints the health latency before and
// during the import (p50, p99, max) and the import's own time. Passes when the p99 during the
// import stays under 100 ms.
//
//   npm run import-responsiveness                  256 MiB
//   npm run import-responsiveness -- --mb 64      a smaller file
import { createReadStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseGpsSix } from '#core/formats/gps-six.ts';
import { writeRaceChrono } from '#core/imports/test-support/writers.ts';
import { generateSession } from '#core/sim/session-generator.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { Browser } from '#test/test-server.ts';
import { startServerProcess } from './server-process';

const { values } = parseArgs({ options: { mb: { type: 'string', default: '256' } } });
const MB = Number(values.mb);
if (!(MB > 0 && MB <= 256)) {
  console.error('Usage: import-responsiveness [--mb 1..256]');
  process.exit(2);
}
const P99_LIMIT_MS = 100;
const POLL_EVERY_MS = 10;

const dir = mkdtempSync(path.join(os.tmpdir(), 'voltas-responsiveness-'));
const file = path.join(dir, 'session.csv');
{
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

function postFile(): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      new URL('/api/imports?filename=session.csv', base),
      {
        method: 'POST',
        headers: { cookie: rider.cookieHeader(), 'content-type': 'text/csv', 'content-length': statSync(file).size },
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
    createReadStream(file).pipe(req);
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

let ok = false;
try {
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
  ok = answer.status === 201 && stats(during).p99 < P99_LIMIT_MS;
  if (!ok) console.error(`✗ the import must succeed and /api/health's p99 during it stay under ${P99_LIMIT_MS} ms`);
} finally {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
}
process.exit(ok ? 0 : 1);

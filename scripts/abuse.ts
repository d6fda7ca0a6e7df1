// One abusive rider against one ordinary rider, on the real server in a process of its own: the
// abuser hammers every heavy read of a very long session (JSON samples, CSV and GPX exports,
// binary columns, analysis) from several connections at once, while the other rider reads laps,
// GPS and their profile as usual. Passes when every answer is right: the ordinary rider's all 200,
// the abuser's 200 or 429 (refused, never failed). The ordinary rider's p99 is printed against its
// goal (under 1 s), a figure of the bench (`npm run bench -- --only abuse`), never a failure: a
// slow machine is not a wrong answer. Prints what the abuser got (answers and 429s).
//
//   npm run abuse                                      1,000,000 samples, 20 s, 6 connections
//   npm run abuse -- --samples 300000 --seconds 8     what npm test and the bench run
//   npm run abuse -- --json                            adds a last line of JSON (the bench reads it)
import { mkdtempSync, rmSync } from 'node:fs';
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
import { startServerProcess } from './server-process';

const { values } = parseArgs({
  options: {
    samples: { type: 'string', default: '1000000' },
    seconds: { type: 'string', default: '20' },
    connections: { type: 'string', default: '6' },
    json: { type: 'boolean', default: false },
  },
});
const SAMPLES = Number(values.samples);
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
if (!(SAMPLES > 0 && SECONDS > 0 && CONNECTIONS > 0)) {
  console.error('Usage: abuse [--samples N] [--seconds S] [--connections C]');
  process.exit(2);
}
/** The ordinary rider's p99 goal (a figure: printed met or missed, never a failure). */
const P99_GOAL_MS = 1000;
/** What the abuser may get: the answer, or a refusal of the heavy reads beyond their share. */
const ABUSER_STATUSES = new Set([200, 429]);

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'voltas-abuse-'));
const track = loadTracks()[0]!;
const riders = [
  { email: 'abuser@example.com', device: '000000000666', token: newToken() },
  { email: 'rider@example.com', device: '000000000777', token: newToken() },
];
{
  const database = createDatabase({ dataDir });
  await migrateToLatest(database.db);
  for (const r of riders) {
    await ensureUser(database.db, r.email);
    await insertDevice(database.db, { id: r.device, owner: r.email, seller: '', tokenHash: hashToken(r.token) });
  }
  await database.close();
}

const { child, base } = await startServerProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'error' });

async function upload(rider: (typeof riders)[number], file: 'lap.six' | 'gps.six', body: string): Promise<void> {
  const res = await fetch(`${base}/api/device/v1/sessions/${encodeURIComponent(track.name)}/01112026/${file}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${rider.token}`, 'content-type': 'text/plain; charset=utf-8' },
    body,
  });
  if (res.status !== 200) throw new Error(`upload ${file}: HTTP ${res.status} ${await res.text()}`);
}

// The abuser's session: a generated 25 Hz day, repeated until it holds SAMPLES samples.
const day = generateSession(track, { seed: 7, heats: 4, lapsPerHeat: [6, 6], hz: 25 });
const dayLines = day.gpsSix.trimEnd().split('\n');
const long: string[] = [];
while (long.length < SAMPLES) long.push(...dayLines.slice(0, SAMPLES - long.length));
const t0 = performance.now();
await upload(riders[0]!, 'gps.six', `${long.join('\n')}\n`);
await upload(riders[0]!, 'lap.six', day.lapSix);
const ordinary = generateSession(track, { seed: 8, heats: 2, lapsPerHeat: [5, 5] });
await upload(riders[1]!, 'gps.six', ordinary.gpsSix);
await upload(riders[1]!, 'lap.six', ordinary.lapSix);
console.log(
  `abuse: ${SAMPLES.toLocaleString('en')} samples uploaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);

const [abuser, rider] = await Promise.all(
  riders.map(async (r) => {
    const b = new Browser(base);
    await b.signIn(r.email);
    return { browser: b, session: `/api/devices/${r.device}/sessions/${encodeURIComponent(track.name)}/01112026` };
  }),
);
const deadline = Date.now() + SECONDS * 1000;

const abuserAnswers = new Map<string, number>();
async function abuse(k: number): Promise<void> {
  const heavy = ['gps', 'export/csv', 'export/gpx', 'gps.bin', 'analysis', 'export/csv?heat=A&lap=2'];
  for (let n = k; Date.now() < deadline; n++) {
    const what = heavy[n % heavy.length]!;
    try {
      const res = await abuser!.browser.request(`${abuser!.session}/${what}`, {
        headers: { 'accept-encoding': 'gzip' },
      });
      await res.arrayBuffer();
      const key = `${what.split('?')[0]} → ${res.status}`;
      abuserAnswers.set(key, (abuserAnswers.get(key) ?? 0) + 1);
    } catch (err) {
      abuserAnswers.set(
        `${what}: ${(err as Error).message}`,
        (abuserAnswers.get(`${what}: ${(err as Error).message}`) ?? 0) + 1,
      );
    }
  }
}

const latencies: number[] = [];
const errors: string[] = [];
async function ordinaryRider(): Promise<void> {
  const reads = ['laps', 'summary', 'gps.bin', '/api/me', 'laps', 'analysis'];
  for (let n = 0; Date.now() < deadline; n++) {
    const what = reads[n % reads.length]!;
    const url = what.startsWith('/') ? what : `${rider!.session}/${what}`;
    const started = performance.now();
    try {
      const res = await rider!.browser.request(url, { headers: { 'accept-encoding': 'gzip' } });
      await res.arrayBuffer();
      if (res.status !== 200) errors.push(`${what}: HTTP ${res.status}`);
    } catch (err) {
      errors.push(`${what}: ${(err as Error).message}`);
    }
    latencies.push(performance.now() - started);
    // A busy screen, not a loop: enough requests that the p99 is not just the slowest one.
    await new Promise((r) => setTimeout(r, 20));
  }
}

await Promise.all([...Array.from({ length: CONNECTIONS }, (_, k) => abuse(k)), ordinaryRider()]);
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
rmSync(dataDir, { recursive: true, force: true });

const sorted = [...latencies].sort((a, b) => a - b);
const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
console.log(
  `abuse: ${CONNECTIONS} abusive connections for ${SECONDS} s against ${SAMPLES.toLocaleString('en')} samples`,
);
console.log('| abuser asked | answers |\n|---|---|');
for (const [k, v] of [...abuserAnswers].sort()) console.log(`| ${k} | ${v} |`);
console.log(
  `ordinary rider: ${latencies.length} requests, p50 ${pct(50).toFixed(1)} ms, p99 ${pct(99).toFixed(1)} ms, max ${(sorted.at(-1) ?? 0).toFixed(1)} ms, ${errors.length} errors`,
);
console.log(`ordinary rider's p99: goal < ${P99_GOAL_MS} ms: ${pct(99) < P99_GOAL_MS ? 'met' : 'MISSED'}`);
for (const e of [...new Set(errors)].slice(0, 10)) console.error(`✗ ${e}`);
const wrongForAbuser = [...abuserAnswers.keys()].filter((k) => !ABUSER_STATUSES.has(Number(k.split(' → ')[1])));
for (const k of wrongForAbuser) console.error(`✗ the abuser got ${k}`);
if (values.json)
  console.log(
    JSON.stringify({
      abuse_rider_p50_ms: pct(50),
      abuse_rider_p99_ms: pct(99),
      abuse_rider_requests: latencies.length,
      abuse_rider_errors: errors.length,
    }),
  );
const ok = errors.length === 0 && latencies.length > 0 && wrongForAbuser.length === 0;
if (!ok) console.error('✗ every answer must be right: the ordinary rider 200 throughout, the abuser 200 or 429');
process.exit(ok ? 0 : 1);

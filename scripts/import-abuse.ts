// Issue 58's attack on imports, replayed against the real server in a process of its own (its
// default limits: a 60 s budget, one worker fewer than the cores): a hostile rider sends the same
// hostile .gpx.gz again and again from several connections, hanging up on each once it is sent,
// while another rider imports a small valid GPX every few seconds. Passes when every one of those
// imports succeeds. Prints how long that import took alone and during the attack, and what the
// hostile rider got.
//
//   npm run import-abuse                               8 connections, the markup bomb, 60 s
//   npm run import-abuse -- --file slow --seconds 90   a file that passes the markup check but is
//                                                      slow to read (a fix every 15,000 characters)
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { parseGpsSix } from '#core/formats/gps-six.ts';
import { writeGpx } from '#core/imports/test-support/writers.ts';
import { generateSession } from '#core/sim/session-generator.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { Browser } from '#test/test-server.ts';
import { startServerProcess } from './server-process';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    connections: { type: 'string', default: '8' },
    file: { type: 'string', default: 'bomb' },
  },
});
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
if (!(SECONDS > 0 && CONNECTIONS > 0 && ['bomb', 'slow'].includes(values.file))) {
  console.error('Usage: import-abuse [--seconds S] [--connections C] [--file bomb|slow]');
  process.exit(2);
}
const MB = 1024 * 1024;

const head =
  '<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>\n';
/** The file: 255 MiB of empty `<a/>`, a space or a line break after each so that it gzips to ~1/20, under the 32 allowed. */
function markupBomb(): Buffer {
  const body = Buffer.alloc(255 * MB);
  body.write(head);
  const blanks = ' \n';
  for (let at = head.length; at + 5 <= body.length; at += 5) {
    body.write('<a/>', at, 'latin1');
    body[at + 4] = blanks.charCodeAt((Math.random() * 2) | 0);
  }
  return gzipSync(body, { level: 6 });
}
/** 240 MiB with a fix every 15,000 characters: passes the markup check, ~12 s of a worker to read. */
function slowFile(): Buffer {
  const junk = Buffer.alloc(15_000, '<a/>');
  const parts = [Buffer.from(head)];
  for (let k = 0; k < (240 * MB) / junk.length; k++) {
    const time = new Date(Date.UTC(2026, 2, 8, 12) + k * 100).toISOString();
    parts.push(
      Buffer.from(`<trkpt lat="${(-23.7 + k * 1e-7).toFixed(7)}" lon="-46.69"><time>${time}</time></trkpt>\n`),
    );
    parts.push(junk);
  }
  return gzipSync(Buffer.concat(parts), { level: 1 });
}
const hostileFile = values.file === 'bomb' ? markupBomb() : slowFile();
const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;
const columns = parseGpsSix(
  generateSession(interlagos, { seed: 21, heats: 1, lapsPerHeat: [2, 2], hz: 1 }).gpsSix,
).value;
/** The valid file of the k-th import: the same ride on another day (new bytes, a session of its own). */
const valid = (k: number) => Buffer.from(writeGpx(columns, { y: 2026, m: 1 + Math.floor(k / 28), d: 1 + (k % 28) }));
console.log(
  `import-abuse: hostile ${values.file} .gpx.gz of ${(hostileFile.length / MB).toFixed(1)} MB; valid GPX of ${(valid(0).length / 1024).toFixed(0)} KB`,
);

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'voltas-import-abuse-'));
const { child, base } = await startServerProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'error' });
const [hostile, rider] = await Promise.all(
  ['hostil@example.com', 'piloto@example.com'].map(async (email) => {
    const b = new Browser(base);
    await b.signIn(email);
    return b;
  }),
);

/** The valid import: its status and seconds. */
async function importValid(k: number): Promise<{ status: number; seconds: number; code?: string }> {
  const started = performance.now();
  const res = await rider!.request(`/api/imports?filename=manha${k}.gpx`, {
    method: 'POST',
    body: new Uint8Array(valid(k)),
  });
  const body = (await res.json()) as { code?: string };
  return {
    status: res.status,
    seconds: (performance.now() - started) / 1000,
    ...(body.code ? { code: body.code } : {}),
  };
}

/** The hostile file sent whole, then the connection cut a second later; or at once, when answered before (a 429). */
function abandoned(k: number): Promise<string> {
  return new Promise((resolve) => {
    const req = http.request(new URL(`/api/imports?filename=hostil${k}.gpx.gz`, base), {
      method: 'POST',
      headers: { cookie: hostile!.cookieHeader(), 'content-length': String(hostileFile.length) },
    });
    req.on('response', (res) => {
      req.destroy();
      resolve(`answered ${res.statusCode}`);
    });
    req.on('error', () => resolve('hung up'));
    req.end(hostileFile, () => setTimeout(() => req.destroy(), 1000));
  });
}

const alone = await importValid(0);
console.log(`alone: ${alone.status} in ${alone.seconds.toFixed(2)} s`);

const deadline = Date.now() + SECONDS * 1000;
const hostileAnswers = new Map<string, number>();
async function attack(k: number): Promise<void> {
  for (let n = 0; Date.now() < deadline; n++) {
    const what = await abandoned(k * 1000 + n);
    hostileAnswers.set(what, (hostileAnswers.get(what) ?? 0) + 1);
    if (what === 'answered 429') await sleep(100); // and again
  }
}
const during: Awaited<ReturnType<typeof importValid>>[] = [];
async function ordinaryRider(): Promise<void> {
  await sleep(3000); // the attack under way
  for (let k = 1; Date.now() < deadline; k++) {
    during.push(await importValid(k));
    await sleep(2000);
  }
}
await Promise.all([...Array.from({ length: CONNECTIONS }, (_, k) => attack(k)), ordinaryRider()]);
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
rmSync(dataDir, { recursive: true, force: true });

console.log(`import-abuse: ${CONNECTIONS} hostile connections for ${SECONDS} s`);
console.log('| hostile rider got | times |\n|---|---|');
for (const [k, v] of [...hostileAnswers].sort()) console.log(`| ${k} | ${v} |`);
const seconds = during.map((d) => d.seconds).sort((a, b) => a - b);
console.log(
  `during the attack: ${during.length} valid imports, ${during.filter((d) => d.status === 201).length} answered 201; ` +
    `median ${(seconds[seconds.length >> 1] ?? 0).toFixed(2)} s, slowest ${(seconds.at(-1) ?? 0).toFixed(2)} s`,
);
const failed = during.filter((d) => d.status !== 201);
for (const f of failed) console.error(`✗ ${f.status} ${f.code ?? ''} after ${f.seconds.toFixed(1)} s`);
const ok = alone.status === 201 && during.length > 0 && failed.length === 0;
if (!ok) console.error('✗ every valid import must succeed while the hostile rider attacks');
process.exit(ok ? 0 : 1);

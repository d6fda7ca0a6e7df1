/**
 * `npm run bench [-- --quick] [-- --json]`: what riders wait for, each against a baseline measured
 * in the same run on the same machine. Prints a table of figures and ratios; with --json, a last
 * line of JSON. Machines here are noisy: read the ratios, medians of several runs.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { isUtf8 } from 'node:buffer';
import autocannon from 'autocannon';
import { inferSchema, initParser } from 'udsv';
import { analyzeGps } from '#core/analysis/gps-analysis.ts';
import { GpsSixStream } from '#core/formats/gps-six-stream.ts';
import { MAX_REPORTED_PROBLEMS } from '#core/formats/six-lines.ts';
import { parseGpsSix } from '#core/formats/gps-six.ts';
import { parseLapSix } from '#core/formats/lap-six.ts';
import { generateSession } from '#core/sim/session-generator.ts';
import { analyzeTrack } from '#core/tracks/track-analysis.ts';
import { definitionFromCatalogue } from '#core/tracks/track-definition.ts';
import { trackCatalogue } from '#server/modules/tracks/track-catalogue.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { MAX_HEAVY_READS_IN_FLIGHT } from '#server/plugins/heavy-reads.ts';
import { Browser, freePort } from '#test/test-server.ts';
import { benchImports } from './imports';
import { benchVideoSync } from './video';
import { lighthouse, lighthouseCli, signedInChrome, type LighthouseRun } from './lighthouse-run';

const args = new Set(process.argv.slice(2));
const QUICK = args.has('--quick');
const JSON_OUT = args.has('--json');
/** `--parse-only`: the parsing and growth rows alone (seconds, no build, no servers, no browser). */
const PARSE_ONLY = args.has('--parse-only');
/** Only the web rows (Chromium, Lighthouse): for working on a page's speed. */
const WEB_ONLY = args.has('--web-only');
/** `--no-lighthouse`: skip the Lighthouse rows (each run takes ~12 s; the first one installs it). */
const LIGHTHOUSE = !args.has('--no-lighthouse');
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

type Row = [area: string, figure: string, baseline: string, ratio: string, target: string];
const rows: Row[] = [];
const result: Record<string, number | null> = {
  parse_vs_udsv: null,
  parse_vs_scan: null,
  parse_upload_vs_scan: null,
  laps_api_vs_hello: null,
  laps_api_p99_vs_hello: null,
  laps_api_errors: null,
  ceiling_vs_hello: null,
  laps_api_vs_ceiling: null,
  gps_api_vs_hello: null,
  upload_vs_raw: null,
  login_js_gzip_kb: null,
  laps_js_gzip_kb: null,
  laps_table_ms: null,
  analytics_100k_ms: null,
  clip_export_720p_x_realtime: null,
  lighthouse_login: null,
  lighthouse_laps: null,
  lighthouse_analytics: null,
  track_analysis_vs_basic: null,
  track_analysis_ns_per_sample: null,
  import_csv_vs_udsv: null,
  import_vbo_vs_udsv: null,
  import_gpx_vs_sax: null,
  import_csv_memory_mb: null,
  import_vbo_memory_mb: null,
  import_gpx_memory_mb: null,
  sessions_list_vs_laps: null,
  progress_100_days_ms: null,
  video_sync_vs_read: null,
};
const log = (s: string) => process.stderr.write(`${s}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const fmt = (n: number, d = 1) => n.toFixed(d);

function timeMedian(fn: () => unknown, runs: number): number {
  fn(); // warm-up
  const ts: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    ts.push(performance.now() - t);
  }
  return median(ts);
}

// ---------------------------------------------------------------- data
const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;
log('generating sessions…');
const big = generateSession(interlagos, { seed: 1, heats: 4, lapsPerHeat: [21, 21] }); // ~110k samples
const sixty = generateSession(interlagos, { seed: 2, heats: 4, lapsPerHeat: [13, 13] }); // 60 laps
const tenMb = generateSession(interlagos, { seed: 3, heats: 4, lapsPerHeat: [31, 31] }); // ~10 MB gps.six

// ---------------------------------------------------------------- 1. parsing
function benchParse() {
  const bytes = Buffer.from(big.gpsSix);
  const mb = bytes.length / 1e6;
  const runs = QUICK ? 9 : 25;
  // (a) the memory-speed ceiling: a newline scan, as a JS byte loop and as Buffer.indexOf (memchr).
  const scanLoop = () => {
    let n = 0;
    for (let i = 0; i < bytes.length; i++) if (bytes[i] === 10) n++;
    return n;
  };
  const scanMemchr = () => {
    let n = 0;
    for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) n++;
    return n;
  };
  // (b) uDSV, the fastest general CSV parser for JS, on the same data as CSV into typed columns.
  const csv = `lat,lon,speed,sats,time,lap,first,heat,roll,lean,meters\n${big.gpsSix.replace(/\|/g, ',')}`;
  const parser = initParser(inferSchema(csv));
  const udsv = () => parser.typedCols(csv);
  const ours = () => parseGpsSix(bytes);
  // The upload's parse: the body in 64 KB chunks as the server receives it, NUL and UTF-8 checks
  // included, columns handed over a batch at a time into reused memory.
  const upload = () => {
    const stream = new GpsSixStream(() => {}, isUtf8);
    for (let o = 0; o < bytes.length; o += 65_536) stream.push(bytes.subarray(o, o + 65_536));
    return stream.end();
  };
  // Interleaved: each run times all four back to back, so a slow spell of this shared machine
  // hits baseline and parser alike; the ratios are the medians of the per-run ratios.
  const t = {
    upload: [] as number[],
    vsScanUpload: [] as number[],
    loop: [] as number[],
    memchr: [] as number[],
    udsv: [] as number[],
    ours: [] as number[],
    vsScan: [] as number[],
    vsUdsv: [] as number[],
  };
  const time = (fn: () => unknown) => {
    const t0 = performance.now();
    fn();
    return performance.now() - t0;
  };
  for (const fn of [scanLoop, scanMemchr, udsv, ours, upload]) fn(); // warm-up
  for (let r = 0; r < runs; r++) {
    const loopMs = time(scanLoop);
    const memchrMs = time(scanMemchr);
    const udsvMs = time(udsv);
    const oursMs = time(ours);
    const uploadMs = time(upload);
    t.upload.push(uploadMs);
    t.vsScanUpload.push(Math.min(loopMs, memchrMs) / uploadMs);
    t.loop.push(loopMs);
    t.memchr.push(memchrMs);
    t.udsv.push(udsvMs);
    t.ours.push(oursMs);
    // The ceiling is the faster of the two scans: the conservative baseline.
    t.vsScan.push(Math.min(loopMs, memchrMs) / oursMs);
    t.vsUdsv.push(udsvMs / oursMs);
  }
  const oursMs = median(t.ours);
  const scanMs = Math.min(median(t.loop), median(t.memchr));
  // With 1 % bad lines: every one left out and reported (the list stops at MAX_REPORTED_PROBLEMS
  // with a last 'tooManyProblems' entry, so a broken file cannot flood the screen).
  const lines = big.gpsSix.split('\n');
  let bad = 0;
  for (let i = 50; i < lines.length; i += 100, bad++) lines[i] = lines[i]!.replace('|', '|x');
  const dirty = Buffer.from(lines.join('\n'));
  let dirtyResult = parseGpsSix(dirty);
  const dirtyMs = timeMedian(() => (dirtyResult = parseGpsSix(dirty)), runs);
  const leftOut = dirtyResult.lines - dirtyResult.value.count;
  const listed = dirtyResult.problems.filter((p) => p.reason !== 'tooManyProblems').length;
  const capped = dirtyResult.problems.some((p) => p.reason === 'tooManyProblems');
  const lapText = Buffer.from(sixty.lapSix.repeat(Math.ceil(2e6 / sixty.lapSix.length)));
  const lapMs = timeMedian(() => parseLapSix(lapText.toString('utf8')), runs);
  result.parse_vs_udsv = median(t.vsUdsv);
  result.parse_vs_scan = median(t.vsScan);
  result.parse_upload_vs_scan = median(t.vsScanUpload);
  rows.push(
    [
      'parse gps.six',
      `${fmt(mb / (oursMs / 1000), 0)} MB/s (${big.sampleCount} samples, ${fmt(oursMs)} ms)`,
      `uDSV ${fmt(mb / (median(t.udsv) / 1000), 0)} MB/s`,
      `${fmt(result.parse_vs_udsv, 2)}×`,
      '(information)',
    ],
    [
      '',
      '',
      `newline scan ${fmt(mb / (scanMs / 1000), 0)} MB/s (JS byte loop ${fmt(mb / (median(t.loop) / 1000), 0)})`,
      `${fmt(result.parse_vs_scan, 3)}×`,
      '(information)',
    ],
    [
      'parse gps.six as uploaded',
      `${fmt(mb / (median(t.upload) / 1000), 0)} MB/s`,
      '',
      `${fmt(result.parse_upload_vs_scan, 3)}×`,
      '(information)',
    ],
    [
      'parse gps.six, 1 % bad lines',
      `${fmt(mb / (dirtyMs / 1000), 0)} MB/s; ${bad} bad lines, ${leftOut} left out, ${listed} listed${capped ? ` + 'tooManyProblems' (cap ${MAX_REPORTED_PROBLEMS})` : ''}`,
      '',
      leftOut === bad && (capped || listed === bad) ? 'all caught' : 'MISSED',
      'every bad line caught',
    ],
    ['parse lap.six', `${fmt(lapText.length / 1e6 / (lapMs / 1000), 0)} MB/s`, '', '', ''],
  );
}

// ---------------------------------------------------------------- 5. growth
function benchGrowth() {
  const base = big.gpsSix;
  const perSample = base.split('\n').length - 1;
  for (const n of [10_000, 100_000, 1_000_000]) {
    const reps = Math.ceil(n / perSample);
    const text = Buffer.from(n <= perSample ? base.split('\n').slice(0, n).join('\n') : base.repeat(reps));
    const parsed = parseGpsSix(text).value;
    const runs = n >= 1_000_000 ? (QUICK ? 2 : 3) : QUICK ? 3 : 7;
    const parseMs = timeMedian(() => parseGpsSix(text), runs);
    const analysisMs = timeMedian(() => analyzeGps(parsed), runs);
    rows.push([
      `growth ${parsed.count} samples`,
      `parse ${fmt(parseMs)} ms, analysis ${fmt(analysisMs)} ms`,
      '',
      `${fmt(((parseMs + analysisMs) * 1e6) / parsed.count, 0)} ns/sample`,
      'linear',
    ]);
  }
}

// ---------------------------------------------------------------- 6. track analysis
/**
 * Lap timing at the gate, corners, segments, corner figures and the ideal lap (`analyzeTrack`)
 * against the basic per-lap analysis (`analyzeGps`) on the same samples: real sessions of 10k,
 * 100k and ~1M samples at Interlagos (the 1M one at 25 Hz, four long heats).
 */
function benchTrackAnalysis() {
  const found = trackCatalogue().find(parseGpsSix(big.gpsSix).value)!;
  const definition = definitionFromCatalogue(found.track.outline, found.track.startFinish, found.forward);
  const sessions = [
    generateSession(interlagos, { seed: 4, heats: 1, lapsPerHeat: [6, 6] }),
    big,
    generateSession(interlagos, { seed: 5, hz: 25, heats: 4, lapsPerHeat: [80, 80] }),
  ];
  const traces = sessions.map((session) => parseGpsSix(session.gpsSix).value);
  // Both compiled as a running server has them: a few rounds over the small sessions first.
  for (let r = 0; r < 10; r++) {
    for (const trace of traces.slice(0, 2)) {
      analyzeTrack(trace, definition);
      analyzeGps(trace);
    }
  }
  const perSample: number[] = [];
  const ratios: number[] = [];
  for (const trace of traces) {
    const runs = trace.count >= 500_000 ? (QUICK ? 2 : 3) : QUICK ? 3 : 7;
    const trackMs = timeMedian(() => analyzeTrack(trace, definition), runs);
    const basicMs = timeMedian(() => analyzeGps(trace), runs);
    perSample.push((trackMs * 1e6) / trace.count);
    ratios.push(trackMs / basicMs);
    rows.push([
      `track analysis ${trace.count} samples`,
      `${fmt(trackMs)} ms (${fmt((trackMs * 1e6) / trace.count, 0)} ns/sample)`,
      `analyzeGps ${fmt(basicMs)} ms`,
      `${fmt(trackMs / basicMs, 2)}×`,
      '≤ 4×, ns/sample within 1.5× 10k → 1M',
    ]);
  }
  result.track_analysis_vs_basic = Number(fmt(Math.max(...ratios), 2));
  result.track_analysis_ns_per_sample = Number(fmt(perSample[1]!, 0));
  rows.push([
    'track analysis growth',
    `${perSample.map((n) => fmt(n, 0)).join(' → ')} ns/sample`,
    '',
    `${fmt(perSample[2]! / perSample[0]!, 2)}× (1M / 10k)`,
    '≤ 1.5×',
  ]);
}

// ---------------------------------------------------------------- servers
const children: ChildProcess[] = [];
function start(cmd: string[], env: Record<string, string>, ready: RegExp): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, cmd, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      if (ready.test(out)) resolve(child);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => reject(new Error(`${cmd.join(' ')} exited ${code}: ${out}`)));
  });
}

/** Starts bench/ceiling-server.mjs with the laps answer as the server sends it; returns its URL. */
async function startCeiling(lapsUrl: string, headers: Record<string, string>, dir: string): Promise<string> {
  // node:http, not fetch: the bytes as sent, not inflated. The Brotli form is made in the
  // background after the first (gzip) answer: ask until it is there.
  const getRaw = () =>
    new Promise<{ body: Buffer; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
      http
        .get(lapsUrl, { headers }, (r) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () =>
            r.statusCode === 200
              ? resolve({ body: Buffer.concat(chunks), headers: r.headers })
              : reject(new Error(`GET ${lapsUrl}: ${r.statusCode}`)),
          );
        })
        .on('error', reject);
    });
  let raw = await getRaw();
  for (let i = 0; i < 50 && raw.headers['content-encoding'] !== 'br'; i++) {
    await new Promise((r) => setTimeout(r, 100));
    raw = await getRaw();
  }
  const file = path.join(dir, 'ceiling-laps.body');
  writeFileSync(file, raw.body);
  const keep = Object.fromEntries(
    Object.entries(raw.headers).filter(
      ([k]) => !['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(k),
    ),
  );
  const port = await freePort();
  await start(['bench/ceiling-server.mjs', String(port), file, JSON.stringify(keep)], {}, /ready/);
  return `http://127.0.0.1:${port}/`;
}

async function cannon(url: string, headers: Record<string, string>, seconds: number) {
  const r = await autocannon({ url, connections: 50, duration: seconds, headers });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts + r.non2xx };
}

/**
 * Load with node:http (native llhttp): for large answers, where autocannon's own response parser,
 * not the server, is the limit (~20 req/s on 2.6 MB bodies against ~80 from four curl loops).
 */
async function httpLoad(url: string, headers: Record<string, string>, connections: number, seconds: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let errors = 0;
  let bytes = 0;
  const until = performance.now() + seconds * 1000;
  const one = () =>
    new Promise<void>((resolve) => {
      const t0 = performance.now();
      http
        .get(url, { agent, headers }, (res) => {
          res.on('data', (d: Buffer) => (bytes += d.length));
          res.on('end', () => {
            if (res.statusCode === 200) latencies.push(performance.now() - t0);
            else errors++;
            resolve();
          });
        })
        .on('error', () => {
          errors++;
          resolve();
        });
    });
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) await one();
    }),
  );
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
  return { rps: latencies.length / seconds, p50: at(0.5), p99: at(0.99), errors, mbps: bytes / 1e6 / seconds };
}

async function putTimed(url: string, body: Buffer, headers: Record<string, string>): Promise<number> {
  const t = performance.now();
  const res = await fetch(url, {
    method: 'PUT',
    body: new Uint8Array(body),
    headers: { 'content-type': 'text/plain', ...headers },
  });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`PUT ${url}: ${res.status}`);
  return performance.now() - t;
}

function jsForRoute(
  manifest: Record<string, { file: string; imports?: string[]; isEntry?: boolean; src?: string }>,
  entries: string[],
): number {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imp of chunk.imports ?? []) visit(imp);
  };
  for (const e of entries) visit(e);
  let bytes = 0;
  for (const f of files) bytes += gzipSync(readFileSync(path.join(ROOT, 'dist/web', f))).length;
  return bytes / 1024;
}

async function main() {
  benchParse();
  benchGrowth();
  benchTrackAnalysis();
  for (const v of await benchVideoSync(QUICK)) {
    result.video_sync_vs_read ??= Number(fmt(v.ratio, 2));
    rows.push([
      `Video sync: ${v.label}`,
      `${fmt(v.syncMs, 1)} ms (${fmt(v.readKb, 0)} KB of ${fmt(v.sizeMb, 0)} MB read)`,
      `reading those bytes alone ${fmt(v.readMs, 2)} ms`,
      `${fmt(v.ratio, 1)}×`,
      '(reported)',
    ]);
  }
  if (PARSE_ONLY) return;

  log('building the web app…');
  execFileSync(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'build', '--config', 'web/vite.config.ts', '--manifest', '--logLevel', 'warn'],
    {
      cwd: ROOT,
      stdio: 'inherit',
    },
  );
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'dist/web/.vite/manifest.json'), 'utf8'));
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry)!;
  const lapsKey = Object.keys(manifest).find((k) => k.includes('features/laps/laps-page'))!;
  result.login_js_gzip_kb = jsForRoute(manifest, [entry]);
  result.laps_js_gzip_kb = jsForRoute(manifest, [entry, lapsKey]);
  rows.push(
    ['JS for /login (gzip)', `${fmt(result.login_js_gzip_kb)} KB`, '', '', '≤ 110 KB'],
    ['JS for /laps (gzip)', `${fmt(result.laps_js_gzip_kb)} KB`, '', '', '≤ 170 KB'],
  );

  log('starting servers…');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'voltas-bench-'));
  const helloPort = await freePort();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  await start(['bench/hello-server.mjs', String(helloPort)], {}, /ready/);
  const env = { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  /** Registers a device of the bench rider with the CLI; its upload token (the last line). */
  const addDevice = (id: string) =>
    execFileSync(process.execPath, ['bin/voltas.mjs', 'device', 'add', id, '--owner', 'bench@example.com'], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    })
      .toString()
      .trim()
      .split('\n')
      .at(-1)!;
  const token = addDevice('000000000900');
  // Nine more devices of the same rider hold the 1,000 sessions of 'Minhas sessões' (the first
  // one's tracks and dates stay as the pages below expect them; a device may upload 120 files a minute).
  const listTokens = Array.from({ length: 9 }, (_, k) => addDevice(`00000000091${k}`));
  // Two more for 'Evolução''s 100 days (the first nine have spent their uploads of the minute).
  const progressTokens = Array.from({ length: 2 }, (_, k) => addDevice(`00000000092${k}`));
  await start(['bin/voltas.mjs', 'serve'], env, /Voltas is running/);
  const auth = { authorization: `Bearer ${token}` };
  await putTimed(`${base}/api/device/v1/sessions/Interlagos/01112026/lap.six`, Buffer.from(sixty.lapSix), auth);
  await putTimed(`${base}/api/device/v1/sessions/Interlagos/01112026/gps.six`, Buffer.from(sixty.gpsSix), auth);
  await putTimed(`${base}/api/device/v1/sessions/Interlagos/02112026/lap.six`, Buffer.from(big.lapSix), auth);
  await putTimed(`${base}/api/device/v1/sessions/Interlagos/02112026/gps.six`, Buffer.from(big.gpsSix), auth);
  const rider = new Browser(base);
  await rider.signIn('bench@example.com');
  const cookie = rider.cookieHeader();

  if (!WEB_ONLY) {
    // 2. API
    log('load: hello-world, laps, gps…');
    // Both servers warmed up first (V8 optimizes a route after some thousands of requests), then
    // measured in alternating rounds, so that a slow spell of this shared machine hits both; the
    // ratios are the medians of the per-round ratios, the figures those of the median round.
    const helloUrl = `http://127.0.0.1:${helloPort}/`;
    const lapsUrl = `${base}/api/devices/000000000900/sessions/Interlagos/01112026/laps`;
    // As a browser asks: with its cookie and the encodings it takes.
    const lapsHeaders = { cookie, 'accept-encoding': 'gzip, deflate, br' };
    // The ceiling: the laps answer's own bytes and headers (Brotli, as the browser gets them)
    // served by node:http alone, without a framework, sign-in or database.
    const ceilingUrl = await startCeiling(lapsUrl, lapsHeaders, dataDir);
    await cannon(helloUrl, {}, QUICK ? 2 : 3);
    await cannon(lapsUrl, lapsHeaders, QUICK ? 2 : 3);
    await cannon(ceilingUrl, lapsHeaders, QUICK ? 1 : 2);
    type Load = Awaited<ReturnType<typeof cannon>>;
    const rounds: { hello: Load; laps: Load; ceiling: Load }[] = [];
    for (let i = 0; i < (QUICK ? 1 : 3); i++) {
      const helloRun = await cannon(helloUrl, {}, QUICK ? 3 : 10);
      const lapsRun = await cannon(lapsUrl, lapsHeaders, QUICK ? 3 : 10);
      rounds.push({ hello: helloRun, laps: lapsRun, ceiling: await cannon(ceilingUrl, lapsHeaders, QUICK ? 3 : 10) });
    }
    // The round whose ratio is the median: its figures are the ones shown.
    const medianRound = (ratio: (r: (typeof rounds)[number]) => number) =>
      [...rounds].sort((a, b) => ratio(a) - ratio(b))[rounds.length >> 1]!;
    const { hello, laps } = medianRound((r) => r.laps.rps / r.hello.rps);
    const { ceiling, hello: helloOfCeiling } = medianRound((r) => r.ceiling.rps / r.hello.rps);
    result.ceiling_vs_hello = ceiling.rps / helloOfCeiling.rps;
    result.laps_api_vs_ceiling = median(rounds.map((r) => r.laps.rps / r.ceiling.rps));
    const lapsErrors = rounds.reduce((n, r) => n + r.laps.errors, 0);
    const gps = await httpLoad(
      `${base}/api/devices/000000000900/sessions/Interlagos/02112026/gps.bin`,
      { cookie, 'accept-encoding': 'gzip' },
      // One rider's allowance of heavy reads in flight (server/src/plugins/heavy-reads.ts).
      MAX_HEAVY_READS_IN_FLIGHT,
      QUICK ? 3 : 10,
    );
    result.laps_api_vs_hello = laps.rps / hello.rps;
    result.laps_api_p99_vs_hello = median(rounds.map((r) => r.laps.p99 / Math.max(1, r.hello.p99)));
    result.laps_api_errors = lapsErrors;
    result.gps_api_vs_hello = gps.rps / hello.rps;
    const line = (r: typeof hello) => `${fmt(r.rps, 0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.errors} errors`;
    rows.push(
      ['API hello-world (baseline)', line(hello), '', '1×', ''],
      [
        `API laps (60 laps; median of ${rounds.length} rounds, ${lapsErrors} errors in all)`,
        line(laps),
        'hello-world',
        `${fmt(result.laps_api_vs_hello, 2)}× req/s, ${fmt(result.laps_api_p99_vs_hello, 2)}× p99`,
        '≥ 0.6×, p99 ≤ 2×, 0 errors',
      ],
      [
        `API laps answer's bytes, node:http alone (the ceiling)`,
        line(ceiling),
        'hello-world',
        `${fmt(result.ceiling_vs_hello, 2)}× req/s (laps reaches ${fmt(result.laps_api_vs_ceiling, 2)}× of it)`,
        '(reported)',
      ],
      [
        'API gps.bin (100k samples, node:http client)',
        `${line(gps)}, ${fmt(gps.mbps, 0)} MB/s`,
        'hello-world',
        `${fmt(result.gps_api_vs_hello, 3)}× req/s`,
        '',
      ],
    );

    // 3. Upload
    log('upload: 10 MB gps.six…');
    const body = Buffer.from(tenMb.gpsSix);
    const n = QUICK ? 3 : 5;
    const raw: number[] = [];
    const ours: number[] = [];
    for (let i = 0; i < n; i++) {
      raw.push(await putTimed(`http://127.0.0.1:${helloPort}/raw`, body, {}));
      ours.push(
        await putTimed(
          `${base}/api/device/v1/sessions/Upload/${String(10 + i).padStart(2, '0')}112026/gps.six`,
          body,
          auth,
        ),
      );
    }
    result.upload_vs_raw = median(raw) / median(ours);
    rows.push([
      'upload gps.six',
      `${fmt(body.length / 1e6)} MB in ${fmt(median(ours), 0)} ms`,
      `bare PUT to disk ${fmt(median(raw), 0)} ms`,
      `${fmt(result.upload_vs_raw, 2)}×`,
      '≥ 0.5×',
    ]);

    // 3a. 'Minhas sessões' with 1,000 sessions: the first page against the laps answer, each asked
    // 200 times one after another (as one rider does), medians.
    log('Minhas sessões: 1,000 sessions…');
    const circuits = ['Interlagos', 'Curitiba', 'Monza', 'Silverstone'];
    const lapSix = Buffer.from(sixty.lapSix);
    for (let k = 0; k < 1000; k++) {
      const day = new Date(Date.UTC(2023, 0, 1 + Math.floor(k / 4)));
      const date = `${String(day.getUTCDate()).padStart(2, '0')}${String(day.getUTCMonth() + 1).padStart(2, '0')}${day.getUTCFullYear()}`;
      await putTimed(`${base}/api/device/v1/sessions/${circuits[k % 4]}/${date}/lap.six`, lapSix, {
        authorization: `Bearer ${listTokens[k % 9]}`,
      });
    }
    const sequential = async (url: string) => {
      const ts: number[] = [];
      for (let i = 0; i < 220; i++) {
        const t = performance.now();
        const res = await fetch(url, { headers: lapsHeaders });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
        if (i >= 20) ts.push(performance.now() - t); // the first 20 warm the route up
      }
      return median(ts);
    };
    const listMs = await sequential(`${base}/api/sessions?limit=20`);
    const lapsMs = await sequential(lapsUrl);
    result.sessions_list_vs_laps = listMs / lapsMs;
    rows.push([
      "API 'Minhas sessões', first page of 1,000 sessions",
      `${fmt(listMs, 2)} ms`,
      `laps answer ${fmt(lapsMs, 2)} ms`,
      `${fmt(result.sessions_list_vs_laps, 2)}×`,
      '≤ 2×',
    ]);

    // 3a'. 'Evolução' of a track ridden on 100 days (one rider's sessions there, each a 60-lap
    // lap.six): the answer's time over loopback, an upper bound of the server's time.
    log('Evolução: a track with 100 days…');
    for (let k = 0; k < 100; k++) {
      const day = new Date(Date.UTC(2024, 0, 1 + k * 3));
      const date = `${String(day.getUTCDate()).padStart(2, '0')}${String(day.getUTCMonth() + 1).padStart(2, '0')}${day.getUTCFullYear()}`;
      await putTimed(`${base}/api/device/v1/sessions/Cascavel/${date}/lap.six`, lapSix, {
        authorization: `Bearer ${progressTokens[k % 2]}`,
      });
    }
    const progressUrl = `${base}/api/sessions/progress?track=Cascavel`;
    const progressDays = ((await (await fetch(progressUrl, { headers: lapsHeaders })).json()) as { days: unknown[] })
      .days.length;
    if (progressDays !== 100) throw new Error(`'Evolução' answered ${progressDays} days, not 100`);
    const progressMs = await sequential(progressUrl);
    result.progress_100_days_ms = progressMs;
    rows.push([
      "API 'Evolução', a track with 100 days",
      `${fmt(progressMs, 2)} ms`,
      '',
      `${fmt(progressMs, 2)} ms`,
      '< 200 ms',
    ]);

    // 3b. Imports of 50 MB files, each into a fresh server of its own (its memory read from /proc).
    log('imports: 50 MB RaceChrono CSV, VBO and GPX…');
    for (const r of await benchImports(ROOT, interlagos, QUICK)) {
      result[r.key] = r.ratio;
      result[r.key.replace(/_vs_.*/, '_memory_mb')] = r.memoryGrowthMb;
      rows.push([
        `import ${r.label}`,
        `${fmt(r.mb)} MB in ${fmt(r.importMs, 0)} ms (${r.laps} laps); server memory +${fmt(r.memoryGrowthMb, 0)} MB`,
        `${r.baseline} ${fmt(r.baselineMs, 0)} ms`,
        `${fmt(r.ratio, 2)}×`,
        // GPX: saxes itself reads it since issue 34 (decision 023); its ratio is information.
        r.key === 'import_gpx_vs_sax' ? 'none (information); memory < 50 MB' : '≤ 2×, memory < 50 MB',
      ]);
    }
  }

  // 4. Web, in Chromium. First the server finishes what the uploads left it (each 10 MB upload's
  // columns are derived after its answer): pages are timed on an idle server, not against that.
  await new Promise((r) => setTimeout(r, 3000));
  log('Chromium: laps table, analytics first paint…');
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const session = rider.cookies.get('voltas_session')!;
  const runs = QUICK ? 2 : 5;
  const lapsTimes: number[] = [];
  const analyticsTimes: number[] = [];
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.addCookies([{ name: 'voltas_session', value: session, url: base }]);
    const page = await context.newPage();
    await page.goto(`${base}/laps`);
    await page.locator('#sel-date').selectOption('01112026');
    // In-page functions without named inner helpers (tsx would inject a helper the page lacks;
    // the app's CSP rightly forbids evaluating strings).
    lapsTimes.push(
      await page.evaluate(async () => {
        const t0 = performance.now();
        (document.querySelector('form.selector button[type=submit]') as HTMLButtonElement).click();
        while (!document.querySelector('.lap-best')) await new Promise((r) => requestAnimationFrame(r));
        return performance.now() - t0;
      }),
    );
    // The laps page settles first: navigating the moment its table shows counted the end of that
    // page's work in the analytics load (+35 to +70 ms median on the same build, 8-10 loads each;
    // two frames' wait took back half of it).
    await page.waitForTimeout(500);
    await page.goto(`${base}/analytics?hw=000000000900&pista=Interlagos&data=02112026`);
    await page.waitForFunction(
      () =>
        performance.getEntriesByName('voltas:map-painted').length > 0 &&
        performance.getEntriesByName('voltas:chart-painted').length > 0,
      undefined,
      { timeout: 30_000 },
    );
    analyticsTimes.push(
      await page.evaluate(() =>
        Math.max(
          performance.getEntriesByName('voltas:map-painted')[0]!.startTime,
          performance.getEntriesByName('voltas:chart-painted')[0]!.startTime,
        ),
      ),
    );
    await context.close();
  }
  result.laps_table_ms = median(lapsTimes);
  result.analytics_100k_ms = median(analyticsTimes);
  rows.push(
    ["'Carregar' → laps table (60 laps)", `${fmt(result.laps_table_ms, 0)} ms`, '', '', ''],
    [
      'analytics load → first chart + map (100k samples)',
      `${fmt(result.analytics_100k_ms, 0)} ms`,
      '',
      '',
      '< 300 ms (issue 7), < 500 ms (issue 5)',
    ],
  );
  log('Chromium: clip export…');
  const clip = await benchClipExport(browser, base, session, QUICK ? 1 : 3);
  result.clip_export_720p_x_realtime = clip.speed;
  rows.push([
    'clip export, 10 s at 720p with the data drawn (WebCodecs H.264, in a worker)',
    `${fmt(clip.speed, 2)} s of clip per s of work (runs ${clip.runs.map((r) => fmt(r, 2)).join(', ')})`,
    'real time: 1 s per s',
    `${fmt(clip.speed, 2)}×`,
    '(reported)',
  ]);
  await browser.close();

  // Lighthouse's performance score, its default mobile run (a mid-range phone on slow 4G,
  // simulated), signed in as the rider for the pages behind the sign-in.
  if (LIGHTHOUSE) {
    const cli = lighthouseCli(log);
    if (typeof cli !== 'string') {
      rows.push(['Lighthouse', `not measured: ${cli.reason}`, '', '', '≥ 95']);
    } else {
      const n = QUICK ? 1 : 3;
      // /login as a visitor (signed in, it sends the rider on); the others as the rider, in a
      // Chrome signed in as them.
      const signedIn = await signedInChrome(base, { name: 'voltas_session', value: session });
      const pages = [
        ['lighthouse_login', '/login', undefined, '≥ 95'],
        ['lighthouse_laps', '/laps', signedIn.port, '≥ 95'],
        ['lighthouse_analytics', '/analytics?hw=000000000900&pista=Interlagos&data=02112026', signedIn.port, '≥ 90'],
      ] as const;
      for (const [key, route, port, target] of pages) {
        log(`Lighthouse ${route}…`);
        const scores: number[] = [];
        let last: LighthouseRun | undefined;
        let failures = 0;
        let lastError = '';
        // Lighthouse now and then loses its own trace (NO_NAVSTART): such a run is run again,
        // up to three failures a page; a page that still fails is reported unmeasured.
        while (scores.length < n && failures < 3) {
          try {
            last = lighthouse(cli, `${base}${route}`, port);
            scores.push(last.score);
          } catch (err) {
            failures++;
            // Lighthouse's own message is on stderr above; this is the first line of the failure.
            lastError = (err instanceof Error ? err.message : String(err)).split('\n')[0]!;
            log(`Lighthouse ${route}: run failed (${failures}), ${lastError}`);
          }
        }
        const name = route.split('?')[0];
        if (scores.length < n) {
          rows.push([
            `Lighthouse ${name}`,
            `not measured: ${failures} runs failed (${lastError.slice(0, 120)})`,
            '',
            '',
            target,
          ]);
          continue;
        }
        result[key] = median(scores);
        const retried = failures ? `, ${failures} failed and run again` : '';
        rows.push([
          `Lighthouse ${name} (mobile, median of ${n})`,
          `${fmt(result[key]!, 0)} (runs ${scores.join(', ')}${retried}; ${last!.detail})`,
          '',
          '',
          target,
        ]);
      }
      await signedIn.close();
    }
  }

  for (const c of children) c.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}

/**
 * The rider's clip export (issue 37): the sample GoPro video picked on the analytics page, synced
 * by hand at its start, its 10 s exported at 720p; the export's own time (the worker's, from
 * the demuxer's start to the muxed file). Median of `runs`.
 */
async function benchClipExport(
  browser: import('@playwright/test').Browser,
  base: string,
  session: string,
  runs: number,
) {
  const sample = path.resolve(ROOT, '../shared/data/video/max-heromode.mp4');
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await context.addCookies([{ name: 'voltas_session', value: session, url: base }]);
  const page = await context.newPage();
  await page.goto(`${base}/analytics?hw=000000000900&pista=Interlagos&data=02112026`);
  await page.getByTestId('video-file').setInputFiles(sample, { timeout: 60_000 });
  await page.getByRole('button', { name: 'Marcar: cruzando a linha agora' }).click();
  await page.getByText('Exportar clipe com os dados').click();
  await page.getByTestId('clip-to').fill('10');
  const speeds: number[] = [];
  for (let i = 0; i < runs; i++) {
    await page.getByRole('button', { name: 'Exportar MP4' }).click();
    const done = page.getByTestId('clip-done');
    await done.waitFor({ state: 'detached' });
    await done.waitFor({ timeout: 300_000 });
    speeds.push(
      Number(await done.getAttribute('data-seconds')) / (Number(await done.getAttribute('data-work-ms')) / 1000),
    );
  }
  await context.close();
  return { speed: median(speeds), runs: speeds };
}

function printTable() {
  const header: Row = ['area', 'figure', 'baseline (same run)', 'ratio', 'target'];
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i]!.length)));
  const out = all.map((r) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`);
  out.splice(1, 0, `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  process.stdout.write(`${out.join('\n')}\n`);
  if (JSON_OUT)
    process.stdout.write(
      `${JSON.stringify(Object.fromEntries(Object.entries(result).map(([k, v]) => [k, v === null ? null : Number(v.toFixed(3))])))}\n`,
    );
}

main()
  .then(printTable)
  .catch((err: unknown) => {
    for (const c of children) c.kill('SIGTERM');
    process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    printTable();
    process.exit(1);
  });

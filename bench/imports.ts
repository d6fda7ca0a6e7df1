/**
 * Imports of 50 MB files (generated at 25 Hz, Interlagos) through the running server, each into a
 * fresh server process so its memory can be read from /proc: the whole import (receive, parse,
 * find the track, time the laps, index) against a general parser reading the same bytes alone in
 * this process — uDSV for the two CSV-like formats, saxes for GPX.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SaxesParser } from 'saxes';
import { inferSchema, initParser } from 'udsv';
import type { GpsColumns } from '#core/formats/gps-columns.ts';
import { trimGpsColumns } from '#core/formats/gps-columns.ts';
import { parseGpsSix } from '#core/formats/gps-six.ts';
import { writeGpx, writeRaceChrono, writeVbo } from '#core/imports/test-support/writers.ts';
import { generateSession, type TrackGeometry } from '#core/sim/session-generator.ts';
import { Browser, freePort } from '#test/test-server.ts';

const TARGET_BYTES = 50e6;
const DAY = { y: 2026, m: 11, d: 15 };

export interface ImportBench {
  key: 'import_csv_vs_udsv' | 'import_vbo_vs_udsv' | 'import_gpx_vs_sax';
  label: string;
  mb: number;
  importMs: number;
  baselineMs: number;
  baseline: string;
  ratio: number;
  memoryGrowthMb: number;
  laps: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/** The first `n` samples of the columns. */
export function firstSamples(c: GpsColumns, n: number): GpsColumns {
  return trimGpsColumns({ ...c, count: Math.min(n, c.count) });
}

/** A file of about TARGET_BYTES from the session, written by `write` (sized from a sample of it). */
function fileOf(c: GpsColumns, write: (c: GpsColumns) => string): Buffer {
  const probe = write(firstSamples(c, 20_000)).length / 20_000;
  return Buffer.from(write(firstSamples(c, Math.floor(TARGET_BYTES / probe))));
}

function timeIt(fn: () => unknown, runs: number): number {
  fn();
  const ts: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    fn();
    ts.push(performance.now() - t);
  }
  return median(ts);
}

/** uDSV's typed columns of the rows (the header block and names given to it as plain CSV). */
function udsvMs(csv: string, runs: number): number {
  const parser = initParser(inferSchema(csv));
  return timeIt(() => parser.typedCols(csv), runs);
}

/** saxes reading the bytes as they would arrive (64 kB pieces, decoded), doing nothing with them. */
export function saxRead(bytes: Buffer): void {
  const p = new SaxesParser();
  const d = new TextDecoder();
  for (let o = 0; o < bytes.length; o += 65_536) p.write(d.decode(bytes.subarray(o, o + 65_536), { stream: true }));
  p.close();
}

function saxMs(bytes: Buffer, runs: number): number {
  return timeIt(() => saxRead(bytes), runs);
}

/** A RaceChrono CSV's rows with their header line (the block before it is not CSV). */
export function raceChronoRows(text: string): string {
  return text.slice(text.indexOf('timestamp,'));
}

/** A VBO's [data] rows as plain CSV with a header line, for uDSV. */
export function vboAsCsv(text: string): string {
  return `sats,time,lat,long,velocity,heading,lean\n${text
    .slice(text.indexOf('[data]') + 8)
    .replaceAll(' ', ',')
    .replaceAll('\r', '')}`;
}

const rssOf = (pid: number, field: 'VmRSS' | 'VmHWM') =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

async function freshServer(root: string): Promise<{ child: ChildProcess; base: string; dir: string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'voltas-bench-import-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['bin/voltas.mjs', 'serve'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()).includes('Voltas is running') && resolve());
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
  return { child, base: `http://127.0.0.1:${port}`, dir };
}

/**
 * POSTs the bytes with node:http: fetch (undici) spends 100–150 ms of its own preparing a 50 MB
 * body before the first byte leaves, time that is the client's and not the import's.
 */
export function post(
  base: string,
  path: string,
  cookie: string,
  bytes: Buffer,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      new URL(path, base),
      {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/octet-stream', 'content-length': bytes.length },
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
    req.end(bytes);
  });
}

async function importThroughServer(root: string, name: string, bytes: Buffer, warmUp: string) {
  const { child, base, dir } = await freshServer(root);
  try {
    const rider = new Browser(base);
    await rider.signIn('bench-import@example.com');
    // A running server has its track catalogue loaded and its code compiled: a small import first.
    const small = await rider.request('/api/imports?filename=warm.gpx', {
      method: 'POST',
      body: warmUp,
      headers: { 'content-type': 'application/octet-stream' },
    });
    if (small.status !== 201) throw new Error(`warm-up import: ${small.status}`);
    await new Promise((r) => setTimeout(r, 1000)); // its derived columns are written after the answer
    // The peak so far (VmHWM) is the start-up's and the warm-up's (the track catalogue loads then):
    // reset it to now (Linux: "5" to clear_refs), so that it is this import's own peak.
    writeFileSync(`/proc/${child.pid}/clear_refs`, '5');
    const before = rssOf(child.pid!, 'VmRSS');
    const t = performance.now();
    const res = await post(base, `/api/imports?filename=${name}`, rider.cookieHeader(), bytes);
    const ms = performance.now() - t;
    const answer = JSON.parse(res.body) as { laps?: unknown[]; code?: string };
    if (res.status !== 201) throw new Error(`import of ${name}: ${res.status} ${res.body.slice(0, 300)}`);
    const peak = rssOf(child.pid!, 'VmHWM');
    return { ms, growthMb: (peak - before) / 1e6, laps: answer.laps!.length };
  } finally {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchImports(root: string, track: TrackGeometry, quick: boolean): Promise<ImportBench[]> {
  const gen = generateSession(track, { seed: 8, hz: 25, heats: 4, lapsPerHeat: [62, 62] });
  const c = parseGpsSix(gen.gpsSix).value;
  const rounds = quick ? 1 : 5;
  const runs = quick ? 3 : 1; // baseline runs a round (after a warm-up one)
  const out: ImportBench[] = [];
  const warmUp = writeGpx(
    firstSamples(parseGpsSix(generateSession(track, { seed: 9, heats: 1, lapsPerHeat: [3, 3] }).gpsSix).value, 100_000),
    {
      ...DAY,
      d: 14,
    },
  );

  const csv = fileOf(c, (s) => writeRaceChrono(s, DAY));
  const csvRows = raceChronoRows(csv.toString('utf8'));
  const vbo = fileOf(c, (s) => writeVbo(s, DAY));
  const vboCsv = vboAsCsv(vbo.toString('utf8'));
  const gpx = fileOf(c, (s) => writeGpx(s, DAY));

  const cases: [ImportBench['key'], string, string, Buffer, () => number, string][] = [
    ['import_csv_vs_udsv', 'RaceChrono CSV v3', 'session.csv', csv, () => udsvMs(csvRows, runs), 'uDSV parse'],
    ['import_vbo_vs_udsv', 'Racelogic VBO', 'session.vbo', vbo, () => udsvMs(vboCsv, runs), 'uDSV parse'],
    ['import_gpx_vs_sax', 'GPX 1.1', 'session.gpx', gpx, () => saxMs(gpx, runs), 'saxes read'],
  ];
  for (const [key, label, name, bytes, baseline, baselineName] of cases) {
    // Alternated, the baseline just before each import: a slow minute on this machine slows both.
    const baselines: number[] = [];
    const imports: { ms: number; growthMb: number; laps: number }[] = [];
    for (let r = 0; r < rounds; r++) {
      baselines.push(baseline());
      imports.push(await importThroughServer(root, name, bytes, warmUp));
    }
    const baselineMs = median(baselines);
    const importMs = median(imports.map((i) => i.ms));
    out.push({
      key,
      label,
      mb: bytes.length / 1e6,
      importMs,
      baselineMs,
      baseline: baselineName,
      ratio: importMs / baselineMs,
      memoryGrowthMb: Math.max(...imports.map((i) => i.growthMb)),
      laps: imports[0]!.laps,
    });
  }
  return out;
}

/**
 * The servers the rows run (each a process of its own, stopped at the end) and the clients that
 * load them: autocannon, a node:http load for large answers, a timed PUT.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { freePort } from '#test/test-server.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export const children: ChildProcess[] = [];
export function start(cmd: string[], env: Record<string, string>, ready: RegExp): Promise<ChildProcess> {
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
export async function startCeiling(lapsUrl: string, headers: Record<string, string>, dir: string): Promise<string> {
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

export async function cannon(url: string, headers: Record<string, string>, seconds: number) {
  const r = await autocannon({ url, connections: 50, duration: seconds, headers });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts + r.non2xx };
}

/**
 * Load with node:http (native llhttp): for large answers, where autocannon's own response parser,
 * not the server, is the limit (~20 req/s on 2.6 MB bodies against ~80 from four curl loops).
 */
export async function httpLoad(url: string, headers: Record<string, string>, connections: number, seconds: number) {
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

/**
 * One PUT of `body` until its answer, ms. With `bytesPerSecond`, the body is sent 64 KB at a time
 * at that rate, as a device's link would carry it, instead of as fast as loopback takes it.
 */
export async function putTimed(
  url: string,
  body: Buffer,
  headers: Record<string, string>,
  bytesPerSecond?: number,
): Promise<number> {
  const t = performance.now();
  const res = await fetch(url, {
    method: 'PUT',
    body: bytesPerSecond ? paced(body, bytesPerSecond) : new Uint8Array(body),
    headers: { 'content-type': 'text/plain', ...headers },
    duplex: 'half',
  } as RequestInit);
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`PUT ${url}: ${res.status}`);
  return performance.now() - t;
}

function paced(body: Buffer, bytesPerSecond: number): ReadableStream<Uint8Array> {
  const CHUNK = 65_536;
  const start = performance.now();
  let offset = 0;
  return new ReadableStream({
    async pull(controller) {
      if (offset >= body.length) return controller.close();
      const due = start + (offset / bytesPerSecond) * 1000;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
      controller.enqueue(new Uint8Array(body.subarray(offset, offset + CHUNK)));
      offset += CHUNK;
    },
  });
}

import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDevice, GPS_LINE, LAP_LINE, logSink, put } from '#test/fixtures.ts';
import { Browser, freePort, startTestServer, type TestServer } from '#test/test-server.ts';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startMetricsServer } from './lib/metrics';

// What operators see of a running instance (issue 20): metrics, liveness and readiness, request ids.

const METRICS_TOKEN = 'operators-token-0123456789';
let server: TestServer;
const { lines: logLines, stream: sink } = logSink();

beforeAll(async () => {
  server = await startTestServer({ METRICS_TOKEN, LOG_FORMAT: 'json' }, { logger: { level: 'info', stream: sink } });
});
afterAll(async () => {
  await server.close();
});

async function scrape(): Promise<string> {
  const res = await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

/** The value of one series in Prometheus' text format (0 when absent). */
function value(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('GET /metrics', () => {
  it('refuses an anonymous caller, a wrong token, and a signed-in admin', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer wrong-token-0123456789' },
      { authorization: `Bearer ${METRICS_TOKEN}x` },
    ] as Record<string, string>[]) {
      const res = await fetch(`${server.baseUrl}/metrics`, { headers });
      expect(res.status).toBe(401);
      expect(((await res.json()) as Record<string, unknown>).message).toMatch(/METRICS_TOKEN/);
    }
    const admin = new Browser(server.baseUrl);
    await admin.signIn('ops.admin@example.com');
    await server.database.db
      .updateTable('users')
      .set({ adm: '1' })
      .where('email', '=', 'ops.admin@example.com')
      .execute();
    expect((await admin.request('/metrics')).status).toBe(401);
  });

  it('a request moves its route pattern series; an upload moves uploads, bytes and warning lines; a refused one its reason', async () => {
    const before = await scrape();
    const token = await addDevice(server, '000000000520', 'metrics@example.com');
    await fetch(`${server.baseUrl}/api/health`);
    const stored = await put(
      server,
      '/api/device/v1/sessions/Metrics/01112026/gps.six',
      token,
      `${GPS_LINE}\nnot a line\n`,
    );
    expect(stored.status).toBe(200);
    expect(
      (await put(server, '/api/device/v1/sessions/Metrics/01112026/gps.six', token, `${GPS_LINE}\nnot a line\n`)).body
        .unchanged,
    ).toBe(true);
    expect(
      (
        await put(server, '/api/device/v1/sessions/Metrics/01112026/lap.six', token, LAP_LINE, {
          'content-type': 'application/json',
        })
      ).status,
    ).toBe(415);
    const after = await scrape();
    const moved = (series: string) => value(after, series) - value(before, series);
    expect(moved('voltas_http_request_duration_seconds_count{method="GET",route="/api/health",status="200"}')).toBe(1);
    expect(moved('voltas_uploads_total{file="gps.six",result="stored"}')).toBe(1);
    expect(moved('voltas_uploads_total{file="gps.six",result="unchanged"}')).toBe(1);
    expect(moved('voltas_upload_bytes_total{file="gps.six"}')).toBe(stored.body.size);
    expect(moved('voltas_upload_warning_lines_total{file="gps.six"}')).toBe(1);
    expect(moved('voltas_uploads_refused_total{file="lap.six",reason="request/unsupported-media-type"}')).toBe(1);
    // Routes by pattern: no series per device, track or date.
    expect(after).toContain('route="/api/device/v1/sessions/:track/:date/gps.six"');
    expect(after).not.toContain('route="/api/device/v1/sessions/Metrics');
  });

  it('counts sign-ins, live connections, database queries and blob operations, and the process', async () => {
    const before = await scrape();
    const rider = new Browser(server.baseUrl);
    await rider.signIn('live.metrics@example.com');
    const stream = await rider.request('/api/events');
    const during = await scrape();
    expect(value(during, 'voltas_live_connections')).toBe(value(before, 'voltas_live_connections') + 1);
    await stream.body?.cancel();
    expect(
      value(during, 'voltas_sign_ins_total{result="ok",reason=""}') -
        value(before, 'voltas_sign_ins_total{result="ok",reason=""}'),
    ).toBe(1);
    expect(value(during, 'voltas_db_query_duration_seconds_count{outcome="ok"}')).toBeGreaterThan(
      value(before, 'voltas_db_query_duration_seconds_count{outcome="ok"}'),
    );
    expect(
      value(during, 'voltas_blob_operation_duration_seconds_count{operation="putFile",outcome="ok"}'),
    ).toBeGreaterThan(0);
    for (const name of ['process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes'])
      expect(during).toMatch(new RegExp(`^${name} `, 'm'));
  });

  it('METRICS_PORT serves them on loopback without a token, and nothing else', async () => {
    const metricsServer = await startMetricsServer(server.metrics.registry, 0);
    try {
      const { port, address } = metricsServer.address() as { port: number; address: string };
      expect(address).toBe('127.0.0.1');
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('voltas_http_request_duration_seconds');
      expect((await fetch(`http://127.0.0.1:${port}/api/me`)).status).toBe(404);
    } finally {
      await new Promise((r) => metricsServer.close(r));
    }
  });
});

// A server process of its own: its start takes seconds on a busy machine (a wait, as the CLI's tests).
describe('METRICS_PORT on a running server', { timeout: 60_000 }, () => {
  it('voltas serve serves /metrics on that loopback port without a token, the app on its own port', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'voltas-metrics-'));
    const [port, metricsPort] = [await freePort(), await freePort()];
    const child = spawn(process.execPath, ['bin/voltas.mjs', 'serve'], {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: String(port),
        METRICS_PORT: String(metricsPort),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const started = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (d: Buffer) => (out += d.toString()).includes('metrics:') && resolve(out));
        child.once('exit', (code) => reject(new Error(`server exited ${code}`)));
      });
      expect(started).toContain(`metrics:           http://127.0.0.1:${metricsPort}/metrics`);
      const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('process_resident_memory_bytes');
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(401);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('liveness and readiness', () => {
  it('live answers while the process does; ready while the database, the blob store and the schema are', async () => {
    expect((await fetch(`${server.baseUrl}/api/health/live`)).status).toBe(200);
    expect(await (await fetch(`${server.baseUrl}/api/health/ready`)).json()).toEqual({ status: 'ok' });
    // A migration this code expects but the database has not run: not ready.
    // The migrator's own table, outside the app's schema types.
    const db = server.database.db as unknown as Kysely<{ kysely_migration: { name: string; timestamp: string } }>;
    const last = await db
      .selectFrom('kysely_migration')
      .select('name')
      .orderBy('name', 'desc')
      .executeTakeFirstOrThrow();
    await db.deleteFrom('kysely_migration').where('name', '=', last.name).execute();
    const pending = await fetch(`${server.baseUrl}/api/health/ready`);
    expect(pending.status).toBe(503);
    expect(pending.headers.get('retry-after')).toBeTruthy();
    expect(((await pending.json()) as Record<string, unknown>).message).toMatch(/migrations pending: 1/);
    expect((await fetch(`${server.baseUrl}/api/health/live`)).status).toBe(200);
    await db.insertInto('kysely_migration').values({ name: last.name, timestamp: new Date().toISOString() }).execute();
    expect((await fetch(`${server.baseUrl}/api/health/ready`)).status).toBe(200);
  });

  it('ready answers 503 when the database does not, live still 200', async () => {
    const other = await startTestServer();
    try {
      await other.database.db.destroy();
      const res = await fetch(`${other.baseUrl}/api/health/ready`);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBeTruthy();
      expect((await fetch(`${other.baseUrl}/api/health/live`)).status).toBe(200);
    } finally {
      await other.app.close().catch(() => undefined);
    }
  });
});

describe('request ids', () => {
  it('every answer names its request; an error carries it in the body; every log line of the request carries it', async () => {
    const ok = await fetch(`${server.baseUrl}/api/health`);
    expect(ok.headers.get('x-request-id')).toMatch(/^[0-9a-f]{4}[0-9a-z]{6}$/);
    const before = logLines.length;
    const missing = await fetch(`${server.baseUrl}/api/devices/000000000001/tracks`);
    const id = missing.headers.get('x-request-id')!;
    expect(((await missing.json()) as Record<string, unknown>).requestId).toBe(id);
    const lines = logLines.slice(before).map((l) => JSON.parse(l) as { reqId?: string });
    expect(lines.length).toBeGreaterThanOrEqual(2); // incoming request, request completed
    expect(lines.every((l) => l.reqId === id)).toBe(true);
    expect(ok.headers.get('x-request-id')).not.toBe(id);
  });
});

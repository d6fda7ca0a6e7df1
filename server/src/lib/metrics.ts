import http from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * What operators see of a running instance, in Prometheus' text format (`GET /metrics`, never
 * anonymous). One registry per app, so tests can build several apps in one process.
 */
export function createMetrics() {
  const registry = new Registry();
  // Process memory, CPU, event-loop lag (nodejs_eventloop_lag_*), GC, handles.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  const registers = [registry];
  const counter = <L extends string>(name: string, labelNames: readonly L[], help: string) =>
    new Counter({ name, help, labelNames, registers });
  // Each remembered cache's size, read when the metrics are (bounded caches: decision in lib/lru.ts).
  const caches = new Map<string, () => number>();
  let jobCounts: () => Promise<{ name: string; queued: number; active: number; failed: number }[]> = async () => [];
  return {
    registry,
    cacheEntries: new Gauge({
      name: 'voltas_cache_entries',
      help: 'Entries held by each bounded in-memory cache, by cache',
      labelNames: ['cache'] as const,
      registers,
      collect() {
        for (const [cache, size] of caches) this.set({ cache }, size());
      },
    }),
    /** Reports a cache's size in `voltas_cache_entries`. */
    watchCache(cache: string, size: () => number) {
      caches.set(cache, size);
    },
    jobs: new Gauge({
      name: 'voltas_jobs',
      help: "Background jobs by job and state (queued, active, failed); on PostgreSQL the whole cluster's, as of pg-boss's last count (each minute)",
      labelNames: ['job', 'state'] as const,
      registers,
      async collect() {
        for (const c of await jobCounts().catch(() => []))
          for (const state of ['queued', 'active', 'failed'] as const) this.set({ job: c.name, state }, c[state]);
      },
    }),
    /** Reports the job queue's counts in `voltas_jobs`. */
    watchJobs(counts: typeof jobCounts) {
      jobCounts = counts;
    },
    jobsSent: counter(
      'voltas_jobs_sent_total',
      ['job', 'result'],
      'Background jobs sent by this instance (scheduled ones aside), by job and result (queued, or merged into one of the same key waiting)',
    ),
    jobRuns: counter(
      'voltas_job_runs_total',
      ['job', 'outcome'],
      'Background jobs run on this instance, by job and outcome (ok, or error: retried or given up)',
    ),
    httpDuration: new Histogram({
      name: 'voltas_http_request_duration_seconds',
      help: 'HTTP requests by route pattern, method and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    uploads: counter(
      'voltas_uploads_total',
      ['file', 'result'],
      'Device uploads stored or answered as unchanged, by file',
    ),
    uploadBytes: counter('voltas_upload_bytes_total', ['file'], 'Bytes of the device uploads stored, by file'),
    uploadsRefused: counter(
      'voltas_uploads_refused_total',
      ['file', 'reason'],
      'Device uploads refused, by file and reason (the error code)',
    ),
    warningLines: counter(
      'voltas_upload_warning_lines_total',
      ['file'],
      'Lines kept but not indexed (reported as warnings), by file',
    ),
    signIns: counter(
      'voltas_sign_ins_total',
      ['result', 'reason'],
      'Sign-ins, ok or failed by reason (the error code)',
    ),
    liveConnections: new Gauge({
      name: 'voltas_live_connections',
      help: 'Open live-update streams (server-sent events)',
      registers,
    }),
    dbQueryDuration: new Histogram({
      name: 'voltas_db_query_duration_seconds',
      help: 'Database queries through Kysely, by outcome',
      labelNames: ['outcome'] as const,
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
      registers,
    }),
    blobDuration: new Histogram({
      name: 'voltas_blob_operation_duration_seconds',
      help: 'Blob store operations, by operation and outcome',
      labelNames: ['operation', 'outcome'] as const,
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 60],
      registers,
    }),
    blobErrors: counter('voltas_blob_errors_total', ['operation'], 'Blob store operations that failed, by operation'),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * METRICS_PORT: the metrics alone on a loopback port, for a scraper on the same machine (no
 * token: nothing else can reach it).
 */
export async function startMetricsServer(registry: Registry, port: number, host = '127.0.0.1'): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Only GET /metrics is served here.\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return server;
}

import type { JobResult } from 'pg-boss';
import { RETRY_DELAY_MS, type JobQueue } from './job-queue';

/** Jobs one fetch takes (a track day's uploads queue hundreds of analyses at once). */
const BATCH = 10;

/**
 * The job queue on PostgreSQL: pg-boss, in its own schema (`pgboss`) of the app's database. Every
 * instance polls the same jobs table and a job is taken by one (SKIP LOCKED); the queue rules of
 * job-queue.ts map onto pg-boss's: a `stately` queue holds one job per key waiting (and one
 * running), retries back off exponentially, a scheduled job is sent throttled to one per period
 * (`sendThrottled`: a unique slot per period in the table).
 *
 * pg-boss is loaded only here, when PostgreSQL is in use: on SQLite nobody pays for importing it.
 */
export async function createPgBossQueue(opts: {
  connectionString: string;
  onError: (err: Error) => void;
}): Promise<JobQueue> {
  const { PgBoss } = await import('pg-boss');
  // Small pool: polling and a few sends. pg-boss's own cron is off: our periods are offered by each instance.
  const boss = new PgBoss({
    connectionString: opts.connectionString,
    max: 4,
    schedule: false,
    application_name: 'voltas-jobs',
  });
  boss.on('error', opts.onError);
  const names = new Set<string>();
  const periods = new Map<string, number>();
  const intervals = new Set<NodeJS.Timeout>();
  const queue: JobQueue = {
    description: 'PostgreSQL (pg-boss)',
    async start() {
      await boss.start();
    },
    async work(name, handler, { retries = 0 } = {}) {
      const retry = { retryLimit: retries, retryDelay: RETRY_DELAY_MS / 1000, retryBackoff: true };
      await boss.createQueue(name, { policy: 'stately', ...retry });
      // An existing queue keeps its policy; its retries follow this code.
      await boss.updateQueue(name, retry);
      names.add(name);
      // Up to BATCH jobs a fetch, run one after the other (one job of a name at a time on an
      // instance), each settled on its own (perJobResults: a failure retries that job alone); a
      // full batch fetches again at once (burst), so a backlog drains at the speed of its jobs,
      // not one job per poll.
      await boss.work<Parameters<typeof handler>[0]>(
        name,
        {
          batchSize: BATCH,
          burstWhenBatchFull: true,
          perJobResults: true,
          localConcurrency: 1,
          pollingIntervalSeconds: 1,
        },
        async (jobs) => {
          const results: JobResult[] = [];
          for (const job of jobs) {
            try {
              await handler(job.data);
              results.push({ id: job.id, status: 'completed' });
            } catch (err) {
              results.push({ id: job.id, status: 'failed', output: { message: (err as Error).message } });
            }
          }
          return results;
        },
      );
    },
    async send(name, data, { singletonKey = '', delayMs = 0 } = {}) {
      const id = await boss.send(name, data, {
        ...(singletonKey ? { singletonKey } : {}),
        ...(delayMs > 0 ? { startAfter: Math.ceil(delayMs / 1000) } : {}),
      });
      return id !== null;
    },
    async schedule(name, everyMs) {
      periods.set(name, everyMs);
      const interval = setInterval(() => void queue.offerScheduled(name).catch(opts.onError), everyMs);
      interval.unref();
      intervals.add(interval);
    },
    async offerScheduled(name) {
      const everyMs = periods.get(name);
      if (everyMs === undefined) throw new Error(`${name} is not scheduled`);
      return (await boss.sendThrottled(name, {}, null, Math.max(1, Math.round(everyMs / 1000)), 'period')) !== null;
    },
    async counts() {
      // pg-boss's own counts, refreshed by its monitor (every minute): cheap to read on every scrape.
      const queues = await boss.getQueues([...names]);
      return queues.map((q) => ({ name: q.name, queued: q.queuedCount, active: q.activeCount, failed: q.failedCount }));
    },
    async stop() {
      for (const interval of intervals) clearInterval(interval);
      // Within main.ts's 25 s of grace.
      await boss.stop({ graceful: true, timeout: 20_000 });
    },
  };
  return queue;
}

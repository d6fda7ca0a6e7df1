/**
 * Background work, run once however many instances there are (decision 030). A job is a name and
 * small JSON data; the rules are the same on both implementations:
 * - at most one job per name and key waits (a job sent while one with its name and key waits
 *   merges into it; a job without a key has the key ''); once it runs, the next one may wait;
 * - one job of a name runs at a time on an instance;
 * - a job that throws runs again up to `retries` times, each wait twice the one before;
 * - a scheduled job runs once per period across all instances: each instance offers it, the
 *   first offer of the period is kept.
 * On PostgreSQL, pg-boss (pg-boss-queue.ts); on SQLite (one process), the queue below.
 */
export interface JobQueue {
  /** Human description for start-up logs. */
  readonly description: string;
  start(): Promise<void>;
  /** Declares a job and runs it on this instance; call before sending any. */
  work<T extends object>(name: string, handler: (data: T) => Promise<void>, opts?: { retries?: number }): Promise<void>;
  /** Queues a job (after `delayMs`); false when it merged into one already waiting. */
  send(name: string, data: object, opts?: { singletonKey?: string; delayMs?: number }): Promise<boolean>;
  /** Offers `name` every `everyMs` from this instance (see offerScheduled). */
  schedule(name: string, everyMs: number): Promise<void>;
  /** This period's offer of a scheduled job (what each instance's timer does): false when it was offered already. */
  offerScheduled(name: string): Promise<boolean>;
  /** Jobs waiting, running and failed (given up), by name: the whole cluster's on PostgreSQL. */
  counts(): Promise<JobCounts[]>;
  /** Stops the timers and taking jobs; waits for those running here. Jobs waiting stay (PostgreSQL) or are dropped (in process). */
  stop(): Promise<void>;
}

interface JobCounts {
  name: string;
  queued: number;
  active: number;
  failed: number;
}

/** The first wait before a failed job runs again; each next one is twice as long. */
export const RETRY_DELAY_MS = 1_000;

interface Waiting {
  data: object;
  key: string;
  attempt: number;
  ready: boolean;
}

interface JobKind {
  handler?: (data: object) => Promise<void>;
  retries: number;
  waiting: Waiting[];
  running?: Promise<void>;
  failed: number;
}

/** Calls `fire` after `ms` (tests pass one that records the wait and fires when they say). */
export type Timer = (ms: number, fire: () => void) => void;

/** The queue of one process (SQLite): the same rules, in memory; jobs waiting are lost with the process. */
export function createInProcessQueue(opts: { timer?: Timer; now?: () => number } = {}): JobQueue {
  const kinds = new Map<string, JobKind>();
  const timeouts = new Set<NodeJS.Timeout>();
  const periods = new Map<string, { everyMs: number; last?: number }>();
  const now = opts.now ?? Date.now;
  let stopped = false;
  const timer: Timer =
    opts.timer ??
    ((ms, fire) => {
      const t = setTimeout(() => {
        timeouts.delete(t);
        fire();
      }, ms);
      t.unref();
      timeouts.add(t);
    });
  const kindOf = (name: string) => {
    let kind = kinds.get(name);
    if (!kind) kinds.set(name, (kind = { retries: 0, waiting: [], failed: 0 }));
    return kind;
  };
  const later = (ms: number, job: Waiting, name: string) =>
    timer(ms, () => {
      job.ready = true;
      pump(name);
    });

  function pump(name: string): void {
    const kind = kindOf(name);
    if (stopped || kind.running || !kind.handler) return;
    const next = kind.waiting.findIndex((j) => j.ready);
    if (next < 0) return;
    const [job] = kind.waiting.splice(next, 1) as [Waiting];
    kind.running = kind
      .handler(job.data)
      .catch(() => {
        if (job.attempt >= kind.retries) {
          kind.failed++;
          return;
        }
        job.attempt++;
        job.ready = false;
        kind.waiting.push(job);
        later(RETRY_DELAY_MS * 2 ** (job.attempt - 1), job, name);
      })
      .finally(() => {
        kind.running = undefined;
        pump(name);
      });
  }

  const queue: JobQueue = {
    description: 'in process',
    start: () => Promise.resolve(),
    async work(name, handler, { retries = 0 } = {}) {
      const kind = kindOf(name);
      kind.handler = handler as (data: object) => Promise<void>;
      kind.retries = retries;
      pump(name);
    },
    async send(name, data, { singletonKey = '', delayMs = 0 } = {}) {
      const kind = kindOf(name);
      // A job waiting to run again (it failed) takes no new one in: that one may bring new data.
      if (kind.waiting.some((j) => j.key === singletonKey && j.attempt === 0)) return false;
      const job: Waiting = { data, key: singletonKey, attempt: 0, ready: delayMs <= 0 };
      kind.waiting.push(job);
      if (job.ready) pump(name);
      else later(delayMs, job, name);
      return true;
    },
    async schedule(name, everyMs) {
      periods.set(name, { everyMs });
      const interval = setInterval(() => void queue.offerScheduled(name), everyMs);
      interval.unref();
      timeouts.add(interval);
    },
    async offerScheduled(name) {
      const period = periods.get(name);
      if (!period) throw new Error(`${name} is not scheduled`);
      const current = Math.floor(now() / period.everyMs);
      if (period.last === current) return false;
      period.last = current;
      return queue.send(name, {});
    },
    async counts() {
      return [...kinds].map(([name, k]) => ({
        name,
        queued: k.waiting.length,
        active: k.running ? 1 : 0,
        failed: k.failed,
      }));
    },
    async stop() {
      stopped = true;
      for (const t of timeouts) clearTimeout(t);
      timeouts.clear();
      await Promise.all([...kinds.values()].map((k) => k.running));
    },
  };
  return queue;
}

/** Counts each job sent (queued or merged) and each run (ok or error) for the metrics. */
export function measuredJobQueue(
  queue: JobQueue,
  observe: { sent(name: string, result: 'queued' | 'merged'): void; ran(name: string, outcome: 'ok' | 'error'): void },
): JobQueue {
  return {
    ...queue,
    async work<T extends object>(name: string, handler: (data: T) => Promise<void>, opts?: { retries?: number }) {
      const measured = async (data: T) => {
        try {
          await handler(data);
        } catch (err) {
          observe.ran(name, 'error');
          throw err;
        }
        observe.ran(name, 'ok');
      };
      await queue.work(name, measured, opts);
    },
    async send(name, data, opts) {
      const queued = await queue.send(name, data, opts);
      observe.sent(name, queued ? 'queued' : 'merged');
      return queued;
    },
  };
}

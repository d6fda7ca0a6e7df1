import { EventEmitter } from 'node:events';
import pg from 'pg';

/**
 * What several server instances must agree on, beyond rows: one writer per key at a time, and
 * events every instance hears. SQLite is one process's database, so in-process is enough there;
 * on PostgreSQL the lock is an advisory lock and events go through LISTEN/NOTIFY, so any number
 * of instances behind a proxy see the same thing.
 */
export interface Coordination {
  /** Runs `work` while no other holder of `key` (in this process or another instance) runs. */
  withKeyLock<T>(key: string, work: () => Promise<T>): Promise<T>;
  /** Delivers `payload` (small JSON) to every subscriber of every instance, this one included. */
  publish(payload: unknown): Promise<void>;
  subscribe(handler: (payload: unknown) => void): () => void;
  /** Resolves once this instance hears events (before the server listens). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** Serializes work per key within this process. */
class KeyedMutex {
  private tails = new Map<string, Promise<unknown>>();
  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    const next = prev.then(work, work);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await next;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

export function inProcessCoordination(): Coordination {
  const mutex = new KeyedMutex();
  const events = new EventEmitter();
  events.setMaxListeners(0);
  return {
    withKeyLock: (key, work) => mutex.run(key, work),
    async publish(payload) {
      events.emit('event', JSON.parse(JSON.stringify(payload)));
    },
    subscribe(handler) {
      events.on('event', handler);
      return () => events.off('event', handler);
    },
    ready: () => Promise.resolve(),
    async close() {
      events.removeAllListeners();
    },
  };
}

const CHANNEL = 'voltas_events';

export function postgresCoordination(connectionString: string, onError: (err: Error) => void = () => {}): Coordination {
  const mutex = new KeyedMutex();
  const events = new EventEmitter();
  events.setMaxListeners(0);
  // Locks hold a connection while the work runs; a pool apart from the queries' pool, so holders
  // can never starve the work they wait for.
  const lockPool = new pg.Pool({ connectionString, max: 20 });
  lockPool.on('error', onError);
  const notifyPool = new pg.Pool({ connectionString, max: 2 });
  notifyPool.on('error', onError);
  let listener: pg.Client | undefined;
  let listening: Promise<void> | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const listen = (): Promise<void> => {
    const client = new pg.Client({ connectionString });
    const reconnect = (err?: Error) => {
      if (err) onError(err);
      if (listener !== client) return;
      listener = undefined;
      listening = undefined;
      client.end().catch(() => undefined);
      if (!closed) retry = setTimeout(() => void ensureListening().catch(onError), 1000);
    };
    listener = client;
    client.on('notification', (msg) => {
      if (msg.channel !== CHANNEL || !msg.payload) return;
      try {
        events.emit('event', JSON.parse(msg.payload));
      } catch (err) {
        onError(err as Error);
      }
    });
    client.on('error', reconnect);
    client.on('end', () => reconnect());
    return client
      .connect()
      .then(() => client.query(`listen ${CHANNEL}`))
      .then(() => undefined);
  };
  const ensureListening = () => {
    if (closed) return Promise.resolve();
    listening ??= listen().catch((err) => {
      listening = undefined;
      throw err;
    });
    return listening;
  };

  return {
    withKeyLock(key, work) {
      return mutex.run(key, async () => {
        const client = await lockPool.connect();
        let broken: Error | undefined;
        // Held for the whole work (an upload: seconds). The pool listens for errors on idle
        // clients only: without this, PostgreSQL restarting meanwhile ('terminating connection')
        // would be an unhandled 'error' event and end the process.
        const onError = (err: Error) => (broken = err);
        client.on('error', onError);
        try {
          await client.query('select pg_advisory_lock(hashtextextended($1, 0))', [key]);
          try {
            return await work();
          } finally {
            await client.query('select pg_advisory_unlock(hashtextextended($1, 0))', [key]).catch((err: Error) => {
              broken = err; // a dead connection: its locks died with it
            });
          }
        } finally {
          client.off('error', onError);
          client.release(broken);
        }
      });
    },
    async publish(payload) {
      await notifyPool.query('select pg_notify($1, $2)', [CHANNEL, JSON.stringify(payload)]);
    },
    subscribe(handler) {
      // Subscribers exist from start-up (the live routes), so the listener connects early.
      void ensureListening().catch(onError);
      events.on('event', handler);
      return () => events.off('event', handler);
    },
    ready: () => ensureListening(),
    async close() {
      closed = true;
      clearTimeout(retry);
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => undefined);
      events.removeAllListeners();
      await Promise.all([lockPool.end(), notifyPool.end()]);
    },
  };
}

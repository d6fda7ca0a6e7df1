import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema';

type Callback = (err: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * @fastify/rate-limit store on the database, so every server instance counts the same hits
 * (the default store is per process). Fixed windows: the first hit opens one of `timeWindow` ms;
 * one upsert per request, in SQL both SQLite and PostgreSQL run. Expired rows are swept now and
 * then. On a database error the request is let through (skipOnError), never refused by mistake.
 */
export function databaseRateLimitStore(db: Kysely<DB>) {
  let calls = 0;
  const sweep = (now: number) => {
    void db.deleteFrom('rate_limits').where('reset_at', '<', now).execute().catch(() => undefined);
  };

  class DatabaseStore {
    constructor(
      _options: unknown,
      private readonly route = '',
    ) {}

    incr(key: string, cb: Callback, timeWindow: number): void {
      const now = Date.now();
      if (++calls % 1000 === 0) sweep(now);
      const resetAt = now + timeWindow;
      db.insertInto('rate_limits')
        .values({ key: `${this.route}|${key}`, hits: 1, reset_at: resetAt })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            hits: sql<number>`case when rate_limits.reset_at <= ${now} then 1 else rate_limits.hits + 1 end`,
            reset_at: sql<number>`case when rate_limits.reset_at <= ${now} then ${resetAt} else rate_limits.reset_at end`,
          }),
        )
        .returning(['hits', 'reset_at'])
        .executeTakeFirstOrThrow()
        .then((row) => cb(null, { current: Number(row.hits), ttl: Math.max(0, Number(row.reset_at) - now) }), (err: Error) => cb(err));
    }

    read(key: string, cb: Callback): void {
      const now = Date.now();
      db.selectFrom('rate_limits')
        .select(['hits', 'reset_at'])
        .where('key', '=', `${this.route}|${key}`)
        .executeTakeFirst()
        .then(
          (row) => cb(null, row && Number(row.reset_at) > now ? { current: Number(row.hits), ttl: Number(row.reset_at) - now } : { current: 0, ttl: 0 }),
          (err: Error) => cb(err),
        );
    }

    child(routeOptions: object): DatabaseStore {
      const info = (routeOptions as { routeInfo?: { method?: string; url?: string } }).routeInfo ?? {};
      return new DatabaseStore(routeOptions, `${info.method ?? ''} ${info.url ?? ''}`);
    }
  }
  return DatabaseStore;
}

// @fastify/rate-limit's counts kept in the database, so every instance counts the same hits.
import type { FastifyRequest } from 'fastify';

type Callback = (err: Error | null, result?: { current: number; ttl: number }) => void;

/** Where hits are counted (the database, so every instance counts the same hits). */
export interface HitCounter {
  hit(key: string, windowMs: number): Promise<{ hits: number; resetAt: number }>;
  read(key: string): Promise<{ hits: number; resetAt: number } | undefined>;
}

/**
 * @fastify/rate-limit store over a shared hit counter (the default store is per process). Fixed
 * windows: the first hit opens one of `timeWindow` ms. On an error the request is let through
 * (skipOnError), never refused by mistake.
 */
export function sharedRateLimitStore(counter: HitCounter) {
  class SharedStore {
    constructor(
      _options: unknown,
      private readonly route = '',
    ) {}

    incr(key: string, cb: Callback, timeWindow: number): void {
      const now = Date.now();
      counter.hit(`${this.route}|${key}`, timeWindow).then(
        (row) => cb(null, { current: row.hits, ttl: Math.max(0, row.resetAt - now) }),
        (err: Error) => cb(err),
      );
    }

    read(key: string, cb: Callback): void {
      counter.read(`${this.route}|${key}`).then(
        (row) => cb(null, row ? { current: row.hits, ttl: row.resetAt - Date.now() } : { current: 0, ttl: 0 }),
        (err: Error) => cb(err),
      );
    }

    child(routeOptions: object): SharedStore {
      const info = (routeOptions as { routeInfo?: { method?: string; url?: string } }).routeInfo ?? {};
      return new SharedStore(routeOptions, `${info.method ?? ''} ${info.url ?? ''}`);
    }
  }
  return SharedStore;
}

/** Whose writes these are for a per-user limit: the signed-in user (the address only when none). */
function writerKey(req: FastifyRequest): string {
  return req.identity ? `user:${req.identity.email}` : `ip:${req.ip}`;
}

/**
 * A route's limit on a write a user can repeat (a rename, a track choice, a gate move, a link):
 * at most `max` a minute per user, counted on every instance; beyond, 429 with the catalog's
 * 'Muitas tentativas' message (for @fastify/rate-limit's route `config.rateLimit`).
 */
export function perUserWrites(max: number) {
  return { max, timeWindow: '1 minute', keyGenerator: writerKey };
}

// Bounds the costly reads (GPS samples, exports) per user: a few in flight, a few a minute.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '#core/errors.ts';
import { asWorkOf } from '#server/lib/fair-turns.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A read that costs the server real work or memory (GPS samples, exports): bounded per user. */
    heavyRead?: boolean;
  }
}

/** Heavy reads one user may have in flight on one instance; a third waits for none: 429. */
export const MAX_HEAVY_READS_IN_FLIGHT = 2;
/** Heavy reads of one kind per user and minute (CSV, GPX, JSON samples). */
export const HEAVY_READS_PER_MINUTE = 20;

const counted = Symbol('heavy read counted');

/** Whose heavy read this is: the signed-in user, else the device, else the address. */
export function heavyReadKey(req: FastifyRequest): string {
  return req.identity ? `user:${req.identity.email}` : req.device ? `device:${req.device.id}` : `ip:${req.ip}`;
}

/** The per-user rate limit of the costliest reads (for @fastify/rate-limit's route config). */
export const heavyReadRateLimit = { max: HEAVY_READS_PER_MINUTE, timeWindow: '1 minute', keyGenerator: heavyReadKey };

/**
 * One rider cannot starve the others: routes marked `config.heavyRead` run at most
 * MAX_HEAVY_READS_IN_FLIGHT at a time per user. Runs after the policy (the user is known). A slot
 * is held until the server is done with the request: its answer ended (sent, failed, or cut off by
 * a client gone away) and its handler finished, whichever comes last. A client that hangs up does
 * not stop the work (an import read on in its worker): freeing the slot then let one rider keep
 * any number of imports running (issue 58). The handler runs as its user's work (`asWorkOf`),
 * which the import workers' turns are taken by.
 */
export const heavyReadsPlugin = fp(async (app: FastifyInstance) => {
  const inFlight = new Map<string, number>();
  const release = (key: string) => {
    const left = (inFlight.get(key) ?? 1) - 1;
    if (left > 0) inFlight.set(key, left);
    else inFlight.delete(key);
  };
  const admit = async (req: FastifyRequest & { [counted]?: () => void }, reply: FastifyReply) => {
    const key = heavyReadKey(req);
    const now = inFlight.get(key) ?? 0;
    if (now >= MAX_HEAVY_READS_IN_FLIGHT) {
      throw new AppError(
        'auth/too-many-requests',
        `At most ${MAX_HEAVY_READS_IN_FLIGHT} large downloads or imports at a time; wait for one to finish.`,
      );
    }
    inFlight.set(key, now + 1);
    // Two things to wait for: the answer's 'close' (once, however it ends) and the handler's end.
    let pending = 2;
    const done = () => {
      if (--pending === 0) release(key);
    };
    req[counted] = done;
    reply.raw.once('close', done);
  };
  // A hook on the heavy routes only: every other request pays nothing for this plugin.
  app.addHook('onRoute', (route) => {
    if (!route.config?.heavyRead) return;
    route.preHandler = [...[route.preHandler ?? []].flat(), admit];
    const handler = route.handler;
    route.handler = function (this: FastifyInstance, req: FastifyRequest & { [counted]?: () => void }, reply) {
      const finished = () => req[counted]?.();
      let result: unknown;
      try {
        result = asWorkOf(heavyReadKey(req), () => handler.call(this, req, reply));
      } catch (err) {
        finished();
        throw err;
      }
      // An async handler is done when its promise settles; one that answers at once, now.
      if (result instanceof Promise) return result.finally(finished);
      finished();
      return result;
    };
  });
});

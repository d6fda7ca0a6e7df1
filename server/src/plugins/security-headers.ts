import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route hijacks the reply and answers on reply.raw (headers must go there). */
    answersOnRaw?: boolean;
  }
}

/**
 * Helmet's headers (CSP, HSTS behind https, nosniff, frame options…) on every answer. They
 * depend only on the configuration, so helmet runs once at start-up and each request copies the
 * result: @fastify/helmet calls helmet(options) anew on every request, re-parsing the CSP,
 * which cost a few per cent of a small API answer.
 */
export const securityHeadersPlugin = fp(async (app: FastifyInstance, options: HelmetOptions) => {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as never, recorder as never, (err?: unknown) => {
    if (err) throw err;
  });
  const entries = Object.entries(headers);
  app.addHook('onRequest', (req, reply, done) => {
    if (req.routeOptions.config.answersOnRaw) {
      // A route that answers on the raw response itself (the bundled OpenID provider's pages)
      // gets them there, as helmet does: without COOP there, the sign-in popup would lose its
      // opener on the way back.
      for (const [name, value] of entries) reply.raw.setHeader(name, value);
    } else {
      // Among Fastify's own headers, written and checked once with them (each raw setHeader
      // checks its name and value, and Node then merges Fastify's headers in one by one).
      reply.headers(headers);
    }
    done();
  });
});

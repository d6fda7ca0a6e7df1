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
 * Headers of an API answer (JSON, files), which a browser never renders as a page: those of the
 * OWASP REST Security Cheat Sheet. Nothing may load or frame it (CSP `default-src 'none'`,
 * `frame-ancestors 'none'`), no sniffing it into something runnable, no other site reading it
 * (CORP). Helmet's page headers (referrer policy, COOP, DNS prefetch, the legacy IE and Flash
 * ones, the page CSP: ~600 bytes) do nothing on such an answer; on a 4 KB laps answer they were a
 * tenth of the bytes over a track's mobile data, and each is parsed by the client.
 */
const API_HEADERS = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
};

export interface SecurityHeadersOptions {
  /** Helmet's options: the headers of pages (HTML, scripts, the OpenID provider's pages). */
  helmet: HelmetOptions;
  /** Whether the answer to this URL is an API answer (never rendered as a page). */
  isApi: (url: string) => boolean;
}

/**
 * Helmet's headers (CSP, HSTS behind https, nosniff, frame options…) on every page, the API
 * set above (with HSTS when helmet sets it) on every API answer, errors included. They depend
 * only on the configuration, so helmet runs once at start-up and each request copies the result:
 * @fastify/helmet calls helmet(options) anew on every request, re-parsing the CSP, which cost a
 * few per cent of a small API answer.
 */
export const securityHeadersPlugin = fp(async (app: FastifyInstance, options: SecurityHeadersOptions) => {
  const page: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: unknown) {
      page[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete page[name.toLowerCase()];
    },
  };
  helmet(options.helmet)({} as never, recorder as never, (err?: unknown) => {
    if (err) throw err;
  });
  const hsts = page['strict-transport-security'];
  const api: Record<string, string> = hsts ? { ...API_HEADERS, 'strict-transport-security': hsts } : { ...API_HEADERS };
  const pageEntries = Object.entries(page);
  app.addHook('onRequest', (req, reply, done) => {
    if (req.routeOptions.config.answersOnRaw) {
      // A route that answers on the raw response itself (the bundled OpenID provider's pages)
      // gets them there, as helmet does: without COOP there, the sign-in popup would lose its
      // opener on the way back.
      for (const [name, value] of pageEntries) reply.raw.setHeader(name, value);
    } else {
      // Among Fastify's own headers, written and checked once with them (each raw setHeader
      // checks its name and value, and Node then merges Fastify's headers in one by one).
      reply.headers(options.isApi(req.url) ? api : page);
    }
    done();
  });
});

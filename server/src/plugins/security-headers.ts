import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import type { AppConfig } from '../config';

/**
 * Headers of an API answer (JSON, files), which a browser never renders as a page: those of the
 * OWASP REST Security Cheat Sheet. Nothing may load or frame it (CSP `default-src 'none'`,
 * `frame-ancestors 'none'`), no sniffing it into something runnable, no other site reading it
 * (CORP). Helmet's page headers (referrer policy, COOP, DNS prefetch, the legacy IE and Flash
 * ones, the page CSP) do nothing on such an answer, yet would weigh on every small answer over a
 * track's mobile data.
 */
const API_HEADERS = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
};

/** A year: what helmet and the OWASP cheat sheets suggest. */
const HSTS_MAX_AGE = 31_536_000;

export interface SecurityHeadersOptions {
  /** Helmet's options: the headers of pages (HTML, scripts, the OpenID provider's pages). */
  helmet: Pick<HelmetOptions, 'contentSecurityPolicy' | 'crossOriginOpenerPolicy'>;
  /** Served over https (PUBLIC_URL): HSTS on pages and API answers. */
  https: boolean;
  /** Whether the answer to this URL is an API answer (never rendered as a page). */
  isApi: (url: string) => boolean;
}

/**
 * Helmet's headers (CSP, HSTS behind https, nosniff, frame options…) on every page, written by
 * helmet's own middleware on the raw response (as in Express; also for the routes that answer on
 * it themselves, like the bundled OpenID provider's pages: without COOP there, the sign-in popup
 * would lose its opener on the way back). Every API answer, errors included, gets the API set
 * above instead, with HSTS when helmet sets it.
 */
export const securityHeadersPlugin = fp(async (app: FastifyInstance, options: SecurityHeadersOptions) => {
  const pageHeaders = helmet({
    ...options.helmet,
    strictTransportSecurity: options.https ? { maxAge: HSTS_MAX_AGE, includeSubDomains: true } : false,
  });
  const api: Record<string, string> = options.https
    ? { ...API_HEADERS, 'strict-transport-security': `max-age=${HSTS_MAX_AGE}; includeSubDomains` }
    : { ...API_HEADERS };
  app.addHook('onRequest', (req, reply, done) => {
    if (options.isApi(req.url)) {
      reply.headers(api);
      done();
    } else {
      pageHeaders(req.raw, reply.raw, (err?: unknown) => done(err as Error | undefined));
    }
  });
});

/** This app's headers: its pages load only their own scripts and styles; Google's sign-in page when configured. */
export function securityHeadersFor(config: Pick<AppConfig, 'publicUrl' | 'google'>): SecurityHeadersOptions {
  const https = config.publicUrl.startsWith('https:');
  return {
    helmet: {
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'https://*.googleusercontent.com'],
          connectSrc: ["'self'"],
          // The rider's video plays from their device, through an object URL; nothing is fetched.
          mediaSrc: ["'self'", 'blob:'],
          formAction: ["'self'", ...(config.google ? ['https://accounts.google.com'] : [])],
          frameAncestors: ["'none'"],
          upgradeInsecureRequests: https ? [] : null,
        },
      },
      // Keeps the sign-in popup reachable from the opener after it visits the identity provider.
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    },
    https,
    // Sign-in and sign-out are navigations and the API docs a page: they get the page headers.
    isApi: (url) => url.startsWith('/api/') && !url.startsWith('/api/auth/') && !url.startsWith('/api/docs'),
  };
}

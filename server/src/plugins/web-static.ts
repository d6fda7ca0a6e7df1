import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { ANALYTICS_PRELOADS, sessionPath } from '#core/contracts/session-paths.ts';
import { sessionParamsSchema } from '#core/contracts/sessions.contract.ts';
import { requestLanguage, translate } from '../lib/i18n';

/** What every page of a signed-in rider asks first: who they are, then their language and units. */
const SIGNED_IN_PRELOADS = ['/api/me', '/api/me/preferences'];

/**
 * `Link: rel=preload` for what a page downloads first: the browser starts on them as the page's
 * HTML arrives, beside the app's code, instead of once that code has run (later still on a phone).
 * A signed-in rider's page gets who they are and their preferences; the analytics page its
 * session's analysis and laps, named by its address. A preload is an ordinary request, authorized
 * when made; an address that names no valid session gets none. `crossorigin`: what fetch() asks
 * for same-origin (credentials included), so the app's own request takes the preloaded answer.
 */
export function pagePreloads(pathname: string, query: Record<string, unknown>, signedIn = false): string | undefined {
  const urls = signedIn ? [...SIGNED_IN_PRELOADS] : [];
  if (pathname === '/analytics') {
    const s = sessionParamsSchema.safeParse({ id: query.hw, track: query.pista, date: query.data });
    const base = s.success && sessionPath({ device: s.data.id, track: s.data.track, date: s.data.date });
    if (base) urls.push(...ANALYTICS_PRELOADS.map((part) => `${base}/${part}`));
  }
  return urls.length ? urls.map((url) => `<${url}>; rel=preload; as=fetch; crossorigin`).join(', ') : undefined;
}

/**
 * Serves the built SPA; any non-API path without a file falls back to index.html. The build
 * writes a Brotli and a gzip copy beside each text file (web/build/precompress.ts): a browser
 * gets the one it takes (`vary: accept-encoding`), any other client the file itself.
 */
export async function webStatic(app: FastifyInstance, opts: { root: string }): Promise<void> {
  const index = path.join(opts.root, 'index.html');
  if (!existsSync(index)) {
    app.log.warn(`web app not built (${index} missing): run "npm run build:web"`);
    return;
  }
  await app.register(fastifyStatic, {
    root: opts.root,
    wildcard: false,
    index: false,
    preCompressed: true,
    setHeaders: (reply, file) => {
      if (file.includes(`${path.sep}assets${path.sep}`))
        reply.header('cache-control', 'public, max-age=31536000, immutable');
      else reply.header('cache-control', 'no-cache');
    },
  });
  app.get('/*', { config: { access: 'public' } }, (req, reply) => {
    // API paths and missing files (anything with an extension) are 404s, never the SPA page.
    const pathname = req.url.split('?')[0]!;
    if (pathname.startsWith('/api/') || pathname.startsWith('/oidc/') || /\.[a-z0-9]+$/i.test(pathname)) {
      return reply.code(404).send({
        code: 'storage/object-not-found',
        message: 'Object does not exist',
        requestId: req.id,
        mensagem: translate(requestLanguage(req))('errors.storage/object-not-found'),
      });
    }
    const signedIn = Boolean(req.identity && !req.identity.disabled);
    const preloads = pagePreloads(pathname, req.query as Record<string, unknown>, signedIn);
    if (preloads) reply.header('link', preloads);
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}

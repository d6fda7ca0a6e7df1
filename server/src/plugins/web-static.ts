import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

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
      if (file.includes(`${path.sep}assets${path.sep}`)) reply.header('cache-control', 'public, max-age=31536000, immutable');
      else reply.header('cache-control', 'no-cache');
    },
  });
  app.get('/*', { config: { access: 'public' } }, (req, reply) => {
    // API paths and missing files (anything with an extension) are 404s, never the SPA page.
    const pathname = req.url.split('?')[0]!;
    if (pathname.startsWith('/api/') || pathname.startsWith('/oidc/') || /\.[a-z0-9]+$/i.test(pathname)) {
      return reply.code(404).send({ code: 'storage/object-not-found', message: 'Object does not exist' });
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}

/**
 * Build step: the installable app. After the app's own build, writes `manifest.webmanifest`,
 * links it from index.html, and builds `src/sw.ts` into `sw.js` with the list of every built file
 * (and a hash of each) in place of `self.__WB_MANIFEST`, which Workbox's precache reads: a new
 * build is a new list, so the worker installs again and the page offers the new version.
 * Our own step rather than vite-plugin-pwa: its generator pulls rollup's native packages, which the
 * registry these machines install from does not carry for every platform (npm ci then refuses).
 */
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build, type Plugin } from 'vite';
import { files } from './precompress.ts';

/** What the worker precaches: the app's files, not their compressed copies or the worker itself. */
const PRECACHED = /\.(?:js|css|html|svg|png|webmanifest)$/i;
/** Built files named by their content: the name is their version. */
const HASHED = /^assets\//;

export function serviceWorker(opts: { manifest: Record<string, unknown>; source: string }): Plugin {
  let outDir = '';
  return {
    name: 'voltas-service-worker',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    transformIndexHtml: () => [
      { tag: 'link', attrs: { rel: 'manifest', href: '/manifest.webmanifest' }, injectTo: 'head' },
    ],
    // Before the compressing step (its plugin comes after this one): the worker is compressed too.
    async closeBundle() {
      await writeFile(path.join(outDir, 'manifest.webmanifest'), JSON.stringify(opts.manifest, null, 2));
      const entries: { url: string; revision: string | null }[] = [];
      for await (const full of files(outDir)) {
        const file = path.relative(outDir, full).split(path.sep).join('/');
        if (!PRECACHED.test(file) || file === 'sw.js') continue;
        const revision = HASHED.test(file)
          ? null
          : createHash('md5')
              .update(await readFile(full))
              .digest('hex');
        entries.push({ url: `/${file}`, revision });
      }
      entries.sort((a, b) => a.url.localeCompare(b.url));
      await build({
        configFile: false,
        logLevel: 'warn',
        define: { 'self.__WB_MANIFEST': JSON.stringify(entries), 'process.env.NODE_ENV': JSON.stringify('production') },
        build: {
          outDir,
          emptyOutDir: false,
          copyPublicDir: false,
          minify: true,
          // A classic script: every browser that has service workers runs it.
          lib: { entry: opts.source, formats: ['iife'], name: 'voltasServiceWorker', fileName: () => 'sw.js' },
        },
      });
    },
  };
}

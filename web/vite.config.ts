// How Vite serves (in development) and builds the web app: the installable service worker, catalogs
// precompiled, files precompressed, module aliases (zod without its JIT; in production no ICU parser and
// react-router's production build), and the analytics page's code in one file (fewer requests).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompiledMessages } from './build/precompiled-messages.ts';
import { precompress } from './build/precompress.ts';
import { serviceWorker } from './build/service-worker.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig(({ mode }) => ({
  root: here,
  plugins: [
    react(),
    precompiledMessages(),
    // An installable app that opens without a signal: our service worker (src/sw.ts), Workbox's
    // precache of every built file and its kept copies of what the rider opened (decision 025).
    serviceWorker({
      source: path.resolve(here, 'src/sw.ts'),
      manifest: {
        name: 'Voltas',
        short_name: 'Voltas',
        description: 'Tempos de volta, setores e GPS da sua moto na pista.',
        lang: 'pt-BR',
        start_url: '/user',
        scope: '/',
        display: 'standalone',
        background_color: '#0f0f10',
        theme_color: '#111111',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
    }),
    precompress(),
  ],
  resolve: {
    // react-router's package exports always point at its development build; production builds
    // take the production one it ships beside it (no dev warnings, about 9 KB less gzip).
    // zod with its JIT off, so that no page load reports a CSP violation (build/zod-jitless.ts).
    alias: [
      { find: /^zod$/, replacement: path.resolve(here, 'build/zod-jitless.ts') },
      ...(mode === 'production'
        ? [
            // The catalogs arrive parsed (build/precompiled-messages.ts): no ICU parser in the bundle.
            {
              find: /^@formatjs\/icu-messageformat-parser$/,
              replacement: path.resolve(here, '../node_modules/@formatjs/icu-messageformat-parser/no-parser.js'),
            },
            {
              find: /^react-router$/,
              replacement: path.resolve(here, '../node_modules/react-router/dist/production/index.mjs'),
            },
          ]
        : []),
    ],
  },
  build: {
    outDir: path.resolve(here, '../dist/web'),
    emptyOutDir: true,
    sourcemap: false,
    // One stylesheet (~4 KB gzip in all): a page's first visit waits on no CSS request of its own.
    cssCodeSplit: false,
    rolldownOptions: {
      // The app's page, and the page the server writes /login and a shared link's first screen into
      // (first-screen.html: a small script of its own, the app only when needed).
      input: { index: path.resolve(here, 'index.html'), 'first-screen': path.resolve(here, 'first-screen.html') },
      output: {
        codeSplitting: {
          // The analytics page's code in one file, chart library included: a browser keeps six
          // connections per host, and on a first visit the page's GPS file, analysis and laps
          // already hold three of them; half a dozen small files queued behind those. The pages
          // that draw the same charts (compare, progress, shared) ride in it too; a shared link's first
          // screen (no charts) does not.
          includeDependenciesRecursively: false,
          groups: [
            {
              name: 'analytics',
              test: /[\\/](features[\\/](analytics|compare|progress|shared)[\\/](?!.*first-screen)|components[\\/](uplot-chart|own-lap-picker)\.tsx|lib[\\/]loss-cards\.ts|app[\\/]video-slots\.tsx|lib[\\/]gps-columns\.ts|analysis[\\/]gps-analysis\.ts|formats[\\/]gps-columns-codec\.ts|node_modules[\\/]uplot[\\/])/,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000', '/oidc': 'http://127.0.0.1:3000' },
  },
}));

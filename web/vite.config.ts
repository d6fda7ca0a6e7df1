import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './build/precompress.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig(({ mode }) => ({
  root: here,
  plugins: [react(), precompress()],
  resolve: {
    // react-router's package exports always point at its development build; production builds
    // take the production one it ships beside it (no dev warnings, about 9 KB less gzip).
    alias: mode === 'production' ? [{ find: /^react-router$/, replacement: path.resolve(here, '../node_modules/react-router/dist/production/index.mjs') }] : [],
  },
  build: {
    outDir: path.resolve(here, '../dist/web'),
    emptyOutDir: true,
    sourcemap: false,
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000', '/oidc': 'http://127.0.0.1:3000' },
  },
}));

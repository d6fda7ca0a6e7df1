// End-to-end tests: build the web app, make sure Chromium's headless shell, ffmpeg and PostgreSQL
// (e2e/cluster.ts starts one) are there, run Playwright on a fresh data dir.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { ensureFfmpeg, ensureHeadlessChromium } from './ensure-chromium.mjs';
import { ensurePostgres } from './postgres.mjs';

const env = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' };
ensureHeadlessChromium();
ensureFfmpeg();
ensurePostgres();
execFileSync(
  process.execPath,
  ['node_modules/vite/bin/vite.js', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'],
  { stdio: 'inherit', env },
);
rmSync(process.env.E2E_DATA_DIR ?? '.tmp/e2e-data', { recursive: true, force: true });
try {
  execFileSync(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', ...process.argv.slice(2)], {
    stdio: 'inherit',
    env,
  });
} catch {
  process.exit(1);
}

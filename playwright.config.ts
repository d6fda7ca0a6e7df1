import { defineConfig } from '@playwright/test';
import { E2E_FIRMWARE_PUBLIC_KEY } from './e2e/firmware-key';
import { E2E_CHROMIUM } from './scripts/ensure-chromium.mjs';

const PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? '.tmp/e2e-data';
export const E2E_ADMIN_EMAIL = 'chefe@example.com';

/**
 * Debian's Chromium headless shell only (decision 034); never a downloaded browser. scripts/e2e.mjs
 * builds and installs first.
 */
export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // Waits, not deadlines: the suite runs beside the server tests on two cores, and a slow, busy
  // machine takes two or three times as long as an idle one (a failing test only fails later).
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    viewport: { width: 390, height: 800 },
    locale: 'pt-BR',
    // The dark theme unless a test asks for the light one (Chromium would say 'light' by default).
    colorScheme: 'dark',
    launchOptions: {
      executablePath: E2E_CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    trace: 'off',
  },
  webServer: {
    command: 'node bin/voltas.mjs demo --if-empty && node bin/voltas.mjs serve',
    url: `http://127.0.0.1:${PORT}/api/health`,
    reuseExistingServer: false,
    // The demo data loaded, then the server: a wait, several times longer on a busy machine.
    timeout: 120_000,
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: E2E_DATA_DIR,
      ADMIN_EMAILS: E2E_ADMIN_EMAIL,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      // The key e2e/firmware.spec.ts signs its images with.
      FIRMWARE_PUBLIC_KEYS: E2E_FIRMWARE_PUBLIC_KEY,
    },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});

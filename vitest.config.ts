import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['module-sync'] },
  test: {
    include: ['core/**/*.test.ts', 'server/**/*.test.ts', 'web/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // One module graph per worker, not per file: the server's dependencies are imported twice per
    // run instead of once per test file. Tests keep their state in what they start (servers, data
    // dirs), never in modules.
    isolate: false,
    globalSetup: ['server/test/global-setup.ts'],
    setupFiles: ['server/test/setup.ts'],
  },
});

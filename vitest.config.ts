import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['module-sync'] },
  test: {
    include: ['core/**/*.test.ts', 'server/**/*.test.ts', 'web/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    setupFiles: ['server/test/setup.ts'],
  },
});

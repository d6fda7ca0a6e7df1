import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres, testDatabaseUrl } from '#test/test-database.ts';
import type { JobQueue } from './job-queue';
import { createPgBossQueue } from './pg-boss-queue';

// pg-boss itself, on the PostgreSQL pass only (SQLite runs the in-process queue, job-queue.test.ts).
describe.runIf(onPostgres)('the pg-boss job queue', () => {
  let queue: JobQueue;
  beforeAll(async () => {
    queue = await createPgBossQueue({ connectionString: (await testDatabaseUrl())!, onError: () => {} });
    await queue.start();
  });
  afterAll(() => queue?.stop());

  it('drains a backlog at the speed of its jobs, and retries a failing one alone', async () => {
    const runs = new Map<number, number>();
    let failedOnce = false;
    await queue.work<{ n: number }>(
      'backlog',
      async ({ n }) => {
        runs.set(n, (runs.get(n) ?? 0) + 1);
        if (n === 7 && !failedOnce) {
          failedOnce = true;
          throw new Error('first run of job 7 fails');
        }
      },
      { retries: 2 },
    );
    // A track day's uploads: many jobs at once. Taken one per poll (1 s), 40 would need 40 s.
    for (let n = 0; n < 40; n++) await queue.send('backlog', { n }, { singletonKey: String(n) });
    await expect.poll(() => runs.size, { timeout: 15_000, interval: 100 }).toBe(40);
    await expect.poll(() => runs.get(7), { timeout: 15_000, interval: 100 }).toBe(2);
    for (const [n, count] of runs) if (n !== 7) expect(count, `job ${n}`).toBe(1);
  });
});

import { afterAll } from 'vitest';
import { runCleanups } from './cleanups';

// Whatever a test file started for itself (an S3 server) stops with the file, so no worker is
// kept alive. Kept import-light: every test file loads this.
afterAll(async () => {
  await runCleanups();
});

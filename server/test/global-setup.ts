import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The run's temporary files (data dirs, uploads, what the CLI's children write) go in one directory
 * of its own, removed when the run ends: a run leaves nothing in the machine's temp dir. Set before
 * Vitest starts its workers, which inherit it with the rest of the environment.
 */
export default function setup(): () => void {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'voltas-vitest-'));
  process.env.TMPDIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}

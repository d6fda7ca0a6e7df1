import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { MIN_NODE_MAJOR } from '../../bin/runtime.mjs';

const major = (version: string) => Number(version.replace(/^v/, '').split('.')[0]);

/** A Node.js on this machine older than 24 (the system's, on these machines Node 20), if any. */
function olderNode(): string | undefined {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node']) {
    try {
      if (major(execFileSync(candidate, ['--version'], { encoding: 'utf8' })) < MIN_NODE_MAJOR) return candidate;
    } catch {
      // not there
    }
  }
  return undefined;
}

describe('runtime', () => {
  it('the tests and the server run on Node.js 24 or newer', () => {
    expect(MIN_NODE_MAJOR).toBe(24);
    expect(major(process.version)).toBeGreaterThanOrEqual(24);
  });

  it.skipIf(!olderNode())('voltas refuses to start on an older Node.js, with a message saying how to run it', () => {
    const res = spawnSync(olderNode()!, ['bin/voltas.mjs', 'serve'], {
      encoding: 'utf8',
      env: { ...process.env, DATA_DIR: '/nonexistent-voltas' },
    });
    expect(res.status).toBe(1);
    expect(res.stderr).toMatch(/needs Node\.js 24 or newer; this is v\d+/);
    expect(res.stderr).toContain('npm start');
  });
});

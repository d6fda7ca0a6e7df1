// Two instances of Voltas on one PostgreSQL and one S3 bucket, for the specs that show what a
// scaled-out installation does (issue 61): a throwaway PostgreSQL (scripts/postgres.mjs), an
// S3-compatible server on loopback (s3rver, as the PostgreSQL + S3 test pass uses), and two
// `voltas serve` processes that share them and nothing else (each its own DATA_DIR).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// @ts-expect-error -- s3rver ships no types; only the constructor, run() and close() are used.
import S3rver from 's3rver';
import { freePort, startPostgres } from '../scripts/postgres.mjs';
import { E2E_FIRMWARE_PUBLIC_KEY } from './firmware-key';

export interface Cluster {
  /** Base URLs of the two instances. */
  a: string;
  b: string;
  /** What a `voltas` command needs to reach the same database and bucket. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** `voltas serve` with `env`; resolves once it says it is running (after its migrations). */
async function serve(env: Record<string, string>): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['bin/voltas.mjs', 'serve'], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('Voltas is running') && resolve());
    child.once('exit', (code) => reject(new Error(`voltas serve exited (${code}) before it listened`)));
  });
  return { child, base: `http://127.0.0.1:${port}` };
}

/** Stops a server as an operator would (SIGTERM); one still closing after 5 s is killed: the spec is over. */
const stopped = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });

export async function startCluster(): Promise<Cluster> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'voltas-e2e-cluster-'));
  const pg = await startPostgres();
  const s3Port = await freePort();
  const s3 = new S3rver({
    port: s3Port,
    address: '127.0.0.1',
    directory: path.join(dir, 's3'),
    silent: true,
    configureBuckets: [{ name: 'voltas-e2e', configs: [] }],
  }) as { run(): Promise<unknown>; close(): Promise<void> };
  await s3.run();
  const env = {
    DATABASE_URL: pg.url,
    S3_BUCKET: 'voltas-e2e',
    S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
    S3_FORCE_PATH_STYLE: 'true',
    S3_REQUEST_CHECKSUM: 'when_required',
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    // One key for both, as instances of one installation share it.
    SECRET_KEY: randomBytes(32).toString('hex'),
    ADMIN_EMAILS: 'admin@voltas.local',
    FIRMWARE_PUBLIC_KEYS: E2E_FIRMWARE_PUBLIC_KEY,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
  };
  const servers: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(servers.map(stopped));
    await s3.close();
    pg.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // Both at once, as a deployment starts them: one runs the migrations while the other waits for
    // the migration lock and then finds them done.
    const start = async (name: string) => {
      const started = await serve({ ...env, DATA_DIR: path.join(dir, name) });
      servers.push(started.child);
      return started;
    };
    const [a, b] = await Promise.all([start('a'), start('b')]);
    return { a: a.base, b: b.base, env: { ...env, DATA_DIR: path.join(dir, 'cli') }, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

// A throwaway PostgreSQL server for tests and benchmarks: Debian's postgresql package (installed
// with apt when missing), initialised in a temporary directory, listening on a free loopback
// port, run as the unprivileged `postgres` user when we are root. Stopped (and the directory
// removed) by stop().
//
//   node scripts/postgres.mjs            starts one and prints its URL until Ctrl-C
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const isRoot = process.getuid?.() === 0;

function findBin() {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((v) => existsSync(path.join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(base, versions[0], 'bin') : undefined;
}

export function ensurePostgres() {
  let bin = findBin();
  if (bin) return bin;
  console.log("[postgres] no PostgreSQL server found: installing Debian's postgresql package");
  const sudo = isRoot ? [] : ['sudo'];
  const run = (args) =>
    execFileSync(sudo[0] ?? args[0], sudo.length ? args : args.slice(1), {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  run(['apt-get', 'update']);
  run(['apt-get', 'install', '-y', '--no-install-recommends', 'postgresql']);
  bin = findBin();
  if (!bin) throw new Error('postgresql installed but no initdb under /usr/lib/postgresql/*/bin');
  return bin;
}

/** A TCP port nothing listens on now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Runs a PostgreSQL binary, as `postgres` when we are root (initdb refuses root). */
function pgRun(bin, args) {
  const cmd = isRoot ? 'runuser' : path.join(bin, args[0]);
  const argv = isRoot ? ['-u', 'postgres', '--', path.join(bin, args[0]), ...args.slice(1)] : args.slice(1);
  const r = spawnSync(cmd, argv, { encoding: 'utf8', cwd: os.tmpdir() });
  if (r.status !== 0) throw new Error(`${args[0]} failed (${r.status}): ${r.stderr || r.stdout}`);
  return r.stdout;
}

/**
 * Starts a server; resolves { url, stop }. `url` is a superuser connection string
 * (trust authentication on loopback only) to the `postgres` database.
 */
export async function startPostgres() {
  const bin = ensurePostgres();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'voltas-pg-'));
  chmodSync(dir, 0o777);
  if (isRoot) execFileSync('chown', ['postgres', dir]);
  const data = path.join(dir, 'data');
  pgRun(bin, ['initdb', '-D', data, '-U', 'app', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
  const port = await freePort();
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
  const startServer = () =>
    pgRun(bin, ['pg_ctl', '-D', data, '-l', path.join(dir, 'log'), '-o', options, '-w', 'start']);
  startServer();
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      pgRun(bin, ['pg_ctl', '-D', data, '-m', 'immediate', '-w', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  return {
    url: `postgres://app@127.0.0.1:${port}/postgres`,
    stop,
    dir,
    /** Stops the server as an operator's restart would (fast: connections are cut), keeping its data. */
    pause: () => pgRun(bin, ['pg_ctl', '-D', data, '-m', 'fast', '-w', 'stop']),
    /** Starts it again on the same port and data. */
    resume: startServer,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const pgServer = await startPostgres();
  console.log(pgServer.url);
  const bye = () => {
    pgServer.stop();
    process.exit(0);
  };
  process.on('SIGINT', bye);
  process.on('SIGTERM', bye);
  setInterval(() => {}, 1 << 30);
}

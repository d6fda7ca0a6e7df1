// `npm test`: every check. End to end (Playwright driving Debian's Chromium headless shell) from the start, beside:
// format, typecheck, lint and knip (side by side); unit + integration (Vitest, real SQLite files and real
// servers on loopback), then the fuzz and crash scripts, beside the server's database tests again on a real
// PostgreSQL server (scripts/postgres.mjs), then the faults script; then the load and abuse scripts.
// `npm test -- unit postgres` runs only the named steps (format typecheck lint knip unit postgres fuzz crash load faults abuse e2e).
// Ends with the list of what failed (CI shows only the tail of the output), the run's time beside the
// CPU time its machine was busy, then one plain line "all: N passed, N failed" summing both runners.
import { spawn } from 'node:child_process';
import { mkdirSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { freePort, startPostgres } from './postgres.mjs';
import { refuseOldRuntime } from '../bin/runtime.mjs';

refuseOldRuntime('npm test');

const env = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' };

/** Milliseconds the machine's cores have spent busy (every process's, a browser's included). */
const busyMs = () => os.cpus().reduce((sum, { times: t }) => sum + t.user + t.nice + t.sys + t.irq, 0);
const runStarted = { at: Date.now(), busy: busyMs() };
const only = process.argv.slice(2);
const want = (step) => only.length === 0 || only.includes(step);
mkdirSync('.tmp', { recursive: true });

const HANG_REPORTS = '.tmp/hang-reports';
// Node writes no report into a directory that does not exist.
mkdirSync(HANG_REPORTS, { recursive: true });

/**
 * Runs one step in its own process group with a wall-clock limit: a hung test (or a worker that
 * never exits) fails the run with a clear message instead of eating CI's time. Before stopping it,
 * every process of the group writes a Node diagnostic report (JS stacks, open handles) to
 * .tmp/hang-reports. Resolves 'ok', 'failed' or 'timeout'. A step run beside others writes to
 * `log` and its output is printed whole when it ends, so that two steps' lines never interleave.
 * The limits are about twice what a step takes on a slow, busy 2-core machine: they catch a hang,
 * not a slow run.
 */
function step(name, args, limitMinutes, extraEnv = {}, log = undefined) {
  const started = Date.now();
  console.log(`\n[test] ${name}: ${args.join(' ')}${log ? ` (output when it ends; meanwhile in ${log})` : ''}`);
  const stepEnv = {
    ...env,
    ...extraEnv,
    NODE_OPTIONS:
      `${env.NODE_OPTIONS ?? ''} --report-on-signal --report-signal=SIGUSR2 --report-directory=${HANG_REPORTS}`.trim(),
  };
  return new Promise((resolve) => {
    const out = log ? openSync(log, 'w') : 'inherit';
    const child = spawn(process.execPath, args, { stdio: ['ignore', out, out], env: stepEnv, detached: true });
    let timedOut = false;
    const signal = (sig) => {
      try {
        process.kill(-child.pid, sig);
      } catch {
        child.kill(sig);
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      console.error(
        `[test] ${name} TIMED OUT after ${limitMinutes} min (a test or worker hung); diagnostic reports go to ${HANG_REPORTS}`,
      );
      signal('SIGUSR2');
      // SIGINT first: Playwright then stops the server it started (in a process group of its own).
      setTimeout(() => signal('SIGINT'), 5000);
      setTimeout(() => signal('SIGKILL'), 15_000);
    }, limitMinutes * 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const result = timedOut ? 'timeout' : code === 0 ? 'ok' : 'failed';
      if (log) process.stdout.write(`\n[test] ${name} output:\n${readFileSync(log, 'utf8')}`);
      console.log(
        `[test] ${name} ${result === 'ok' ? 'ok' : result.toUpperCase()} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
      resolve(result);
    });
  });
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

let ok = true;
let passed = 0;
let failed = 0;
/** One line per failed test or step, printed again at the very end. */
const failures = [];
const firstLine = (message = '') => stripVTControlCharacters(message).trim().split('\n')[0].slice(0, 300);

const logOf = (name) => `.tmp/${name.replace(/\W+/g, '-')}.log`;

// The static checks side by side: each is one process, and two cores finish them sooner together.
// One typecheck project per part: core sees neither Node nor the DOM, the server no DOM, the web no Node.
// End to end starts first and runs beside everything: it is the longest
// step, and much of it is waiting on the browser, not computing.
const endToEndRun = want('e2e') ? endToEnd() : Promise.resolve(true);

const checks = [];
if (want('format'))
  checks.push([
    'format (Prettier; npm run format fixes it)',
    ['node_modules/prettier/bin/prettier.cjs', '--check', '.', '--log-level', 'warn'],
  ]);
if (want('typecheck'))
  for (const project of ['core', 'server', 'web', '.'])
    checks.push([`typecheck ${project}`, ['node_modules/typescript/bin/tsc', '-p', project]]);
if (want('lint')) checks.push(['lint', ['node_modules/eslint/bin/eslint.js', '.', '--max-warnings=0']]);
// Unused files, exports and dependencies fail the run (knip.jsonc names the entries it cannot find).
if (want('knip')) checks.push(['knip', ['node_modules/knip/bin/knip.js', '--reporter', 'compact']]);
const checkResults = await Promise.all(checks.map(([name, args]) => step(name, args, 8, {}, logOf(name))));
checkResults.forEach((result, i) => {
  if (result !== 'ok') failures.push(`${checks[i][0]}: ${result} (its output is above)`);
  ok = result === 'ok' && ok;
});

/** The test files a Vitest run started and never finished (its progress reporter's lines). */
function unfinished(progressFile) {
  let text = '';
  try {
    text = readFileSync(progressFile, 'utf8');
  } catch {
    return [];
  }
  const open = new Set();
  for (const line of text.split('\n')) {
    const [what, ...rest] = line.split(' ');
    if (what === 'start') open.add(rest.join(' '));
    if (what === 'end') open.delete(rest.join(' '));
  }
  return [...open];
}

/** The last lines the test servers of a failed run logged at level error (a passing run logs none). */
function printServerErrors(name, errorLog) {
  let lines = [];
  try {
    lines = readFileSync(errorLog, 'utf8').trimEnd().split('\n');
  } catch {
    return;
  }
  console.error(`\n[test] ${name}: the test servers' last errors (${lines.length} in all):`);
  console.error(lines.slice(-40).join('\n'));
}

/** One Vitest run; adds its counts to the totals. A hang fails it, naming the files that hung. */
async function vitestRun(name, filters, jsonFile, extraEnv = {}, log = undefined) {
  rmSync(jsonFile, { force: true });
  const progressFile = `${jsonFile}.progress`;
  rmSync(progressFile, { force: true });
  const vitest = [
    'node_modules/vitest/vitest.mjs',
    'run',
    ...filters,
    '--reporter=default',
    '--reporter=json',
    '--reporter=./scripts/vitest-progress-reporter.mjs',
    `--outputFile.json=${jsonFile}`,
  ];
  // What the test servers log at level error (server/test/test-server.ts): printed when the run fails,
  // so that an unexpected 500 says why.
  const errorLog = `${jsonFile}.server-errors.log`;
  rmSync(errorLog, { force: true });
  const result = await step(
    name,
    vitest,
    10,
    { ...extraEnv, VOLTAS_PROGRESS_FILE: progressFile, VOLTAS_TEST_ERROR_LOG: errorLog },
    log,
  );
  if (result !== 'ok') printServerErrors(name, errorLog);
  if (result === 'timeout') {
    const hung = unfinished(progressFile);
    console.error(
      `[test] ${name} hung in: ${hung.length ? hung.join(', ') : 'no test file (after the last one ended: a worker or the runner itself)'}`,
    );
    failed += Math.max(1, hung.length);
    failures.push(...(hung.length ? hung : ['a worker or the runner']).map((file) => `${name}: hung in ${file}`));
  }
  const report = readJson(jsonFile);
  if (report) {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    for (const file of report.testResults)
      for (const test of file.assertionResults)
        if (test.status === 'failed')
          failures.push(
            // The duration shows a timeout, which Vitest's JSON report gives no message for.
            `${name}: ${path.relative('.', file.name)} › ${test.fullName} (${((test.duration ?? 0) / 1000).toFixed(1)} s): ${firstLine(test.failureMessages?.[0])}`,
          );
  } else {
    failed += 1;
    failures.push(`${name}: ${result}, no report written (its output is above)`);
  }
  return result === 'ok';
}

/**
 * The server's test files that touch the database or the blob store: those that start a test
 * server or database (server/test/test-server.ts, test-database.ts, test-s3.ts, cli.ts). Only they
 * run again on PostgreSQL; a database-free test would only repeat itself.
 */
function databaseTestFiles() {
  const uses = /from '#test\/(test-server|test-database|test-s3|cli)\.ts'/;
  return readdirSync('server', { recursive: true })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => path.join('server', file))
    .filter((file) => uses.test(readFileSync(file, 'utf8')))
    .sort();
}

/** The server's database tests again in the scale-out configuration (see below). */
async function postgresPass() {
  // A real PostgreSQL server (each test server gets its own empty database there) and blobs in a
  // real S3-compatible server on loopback (s3rver, one per test file, a bucket per test server).
  let pgServer;
  try {
    pgServer = await startPostgres();
    console.log(`\n[test] PostgreSQL started for the second run: ${pgServer.url}`);
    const name = 'server integration (PostgreSQL + S3)';
    return await vitestRun(
      name,
      databaseTestFiles(),
      '.tmp/vitest-pg.json',
      { VOLTAS_TEST_PG_URL: pgServer.url, VOLTAS_TEST_S3: '1' },
      logOf(name),
    );
  } catch (err) {
    console.error(`[test] could not start PostgreSQL: ${err.message}`);
    failed += 1;
    failures.push(`PostgreSQL did not start: ${err.message}`);
    return false;
  } finally {
    pgServer?.stop();
  }
}

/** Playwright on the built app; its counts join the totals. */
async function endToEnd() {
  rmSync('.tmp/playwright.json', { force: true });
  // Generous: includes installing Chromium with apt on a fresh machine and building the web app.
  const name = 'end-to-end';
  // A free port: a server some earlier run left behind cannot stand in the way of this one.
  const port = process.env.E2E_PORT ?? String(await freePort());
  const result = await step(
    name,
    ['scripts/e2e.mjs', '--reporter=list,json'],
    25,
    { PLAYWRIGHT_JSON_OUTPUT_NAME: '.tmp/playwright.json', E2E_PORT: port },
    logOf(name),
  );
  const report = readJson('.tmp/playwright.json');
  if (report?.stats) {
    passed += report.stats.expected + report.stats.flaky;
    failed += report.stats.unexpected;
    failures.push(...playwrightFailures(report.config.rootDir, report.suites).map((line) => `${name}: ${line}`));
    if (result === 'failed' && report.stats.unexpected === 0)
      failures.push(
        `${name}: failed outside any test: ${firstLine(report.errors?.[0]?.message) || 'its output is above'}`,
      );
  } else {
    failed += 1;
    failures.push(`${name}: ${result}, no report written (its output is above)`);
  }
  return result === 'ok';
}

/** "file › title: first line of the error" for each test Playwright did not expect to fail. */
function playwrightFailures(rootDir, suites = [], titles = []) {
  return suites.flatMap((suite) => {
    const inside = suite.title && !suite.title.endsWith('.ts') ? [...titles, suite.title] : titles;
    const own = (suite.specs ?? []).flatMap((spec) =>
      spec.tests
        .filter((test) => test.status === 'unexpected')
        .map((test) => {
          const error = test.results.at(-1)?.error?.message;
          return `${path.relative('.', path.join(rootDir, spec.file))} › ${[...inside, spec.title].join(' › ')}: ${firstLine(error)}`;
        }),
    );
    return [...own, ...playwrightFailures(rootDir, suite.suites, inside)];
  });
}

// The robustness scripts with smaller counts than `npm run fuzz|crash|load`; each counts as one test.
async function scriptStep(name, args, limitMinutes, log = undefined) {
  const result = await step(name, ['node_modules/tsx/dist/cli.mjs', ...args], limitMinutes, {}, log);
  if (result === 'ok') passed += 1;
  else {
    failed += 1;
    failures.push(`${name}: ${result} (its output is above)`);
  }
  return result === 'ok';
}

/**
 * Two lanes side by side, about as long as each other: Vitest on SQLite, then the fuzz and crash
 * scripts; the PostgreSQL pass, then the faults script. Then the load and abuse scripts.
 */
async function testsInTurn() {
  let fine = true;
  // The scripts fail on errors, lost data or a leak, not on a latency (faults gives each outage
  // 10 s to recover).
  const sqliteThenScripts = async () => {
    let laneFine = true;
    if (want('unit'))
      laneFine =
        (await vitestRun('unit + integration (SQLite)', [], '.tmp/vitest.json', {}, logOf('unit'))) && laneFine;
    if (want('fuzz'))
      laneFine =
        (await scriptStep('fuzz (2,000 inputs per parser)', ['scripts/fuzz.ts', '--runs', '2000'], 8, logOf('fuzz'))) &&
        laneFine;
    if (want('crash'))
      laneFine =
        (await scriptStep('crash safety (5 kills)', ['scripts/crash.ts', '--kills', '5'], 8, logOf('crash'))) &&
        laneFine;
    return laneFine;
  };
  const postgresThenFaults = async () => {
    let laneFine = true;
    if (want('postgres')) laneFine = (await postgresPass()) && laneFine;
    if (want('faults'))
      laneFine =
        (await scriptStep(
          'faults (PostgreSQL restart, S3 away, full disk; 3 s outages)',
          ['scripts/faults.ts', '--outage', '3'],
          5,
          logOf('faults'),
        )) && laneFine;
    return laneFine;
  };
  const lanes = [sqliteThenScripts(), postgresThenFaults()];
  for (const result of await Promise.all(lanes)) fine = result && fine;
  // After them, on a quieter machine: its figures are printed (the pass is no error, no leak).
  if (want('load'))
    fine =
      (await scriptStep(
        'load (50 riders, 10 s)',
        ['scripts/load.ts', '--clients', '50', '--seconds', '10'],
        5,
        logOf('load'),
      )) && fine;
  // Right answers under abuse (its p99 is a figure of the bench, not a pass here).
  if (want('abuse'))
    fine =
      (await scriptStep(
        'abuse (one rider hammering heavy reads, 8 s)',
        ['scripts/abuse.ts', '--samples', '300000', '--seconds', '8'],
        5,
        logOf('abuse'),
      )) && fine;
  return fine;
}

for (const result of await Promise.all([testsInTurn(), endToEndRun])) ok = result && ok;

if (!ok && failed === 0) failed = 1;
if (failures.length) console.log(`\n[test] what failed:\n${failures.map((line) => `  - ${line}`).join('\n')}`);
// Whether the run's time is the machine's CPU (cores busy throughout: only less work is faster) or waits.
const wallS = (Date.now() - runStarted.at) / 1000;
const cpuS = (busyMs() - runStarted.busy) / 1000;
console.log(
  `\n[test] ${wallS.toFixed(0)} s; the machine's ${os.cpus().length} cores busy ${cpuS.toFixed(0)} CPU-s (${((100 * cpuS) / (wallS * os.cpus().length)).toFixed(0)} %)`,
);
console.log(`\nall: ${passed} passed, ${failed} failed`);
process.exit(ok && failed === 0 ? 0 : 1);

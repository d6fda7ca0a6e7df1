// `npm test`: every check, in order — typecheck, lint, unit + integration (Vitest, real SQLite
// files and real servers on loopback), then end-to-end (Playwright driving Debian's Chromium).
// Ends with one plain line "all: N passed, N failed" summing both runners.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';

const env = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' };
const only = process.argv.slice(2);
const want = (step) => only.length === 0 || only.includes(step);
mkdirSync('.tmp', { recursive: true });

function step(name, args) {
  const started = Date.now();
  console.log(`\n[test] ${name}: ${args.join(' ')}`);
  const res = spawnSync(process.execPath, args, { stdio: 'inherit', env });
  console.log(`[test] ${name} ${res.status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return res.status === 0;
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

if (want('typecheck')) ok = step('typecheck', ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json', '--noEmit']) && ok;
if (want('lint')) ok = step('lint', ['node_modules/eslint/bin/eslint.js', '.', '--max-warnings=0']) && ok;

if (want('unit')) {
  rmSync('.tmp/vitest.json', { force: true });
  ok = step('unit + integration', ['node_modules/vitest/vitest.mjs', 'run', '--reporter=default', '--reporter=json', '--outputFile.json=.tmp/vitest.json']) && ok;
  const report = readJson('.tmp/vitest.json');
  if (report) {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
  } else failed += 1;
}

if (want('e2e')) {
  rmSync('.tmp/playwright.json', { force: true });
  env.PLAYWRIGHT_JSON_OUTPUT_NAME = '.tmp/playwright.json';
  ok = step('end-to-end', ['scripts/e2e.mjs', '--reporter=list,json']) && ok;
  const report = readJson('.tmp/playwright.json');
  if (report?.stats) {
    passed += report.stats.expected + report.stats.flaky;
    failed += report.stats.unexpected;
  } else failed += 1;
}

if (!ok && failed === 0) failed = 1;
console.log(`\nall: ${passed} passed, ${failed} failed`);
process.exit(ok && failed === 0 ? 0 : 1);

/**
 * Lighthouse's performance score, its mobile run (a mid-range phone on slow 4G, simulated) at its
 * default 4× CPU slowdown, with the host's `benchmarkIndex` beside it, and the same load scored at
 * the slowdown calibrated from that index (`cpuSlowdownFor`) as information. Pages behind the
 * sign-in are measured in a Chrome whose cookie jar holds the rider's session (`signedInChrome`),
 * so every request the page makes carries it — a worker's too, which Lighthouse's
 * `--extra-headers` does not reach (the GPS file answered 401 that way).
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '#test/test-server.ts';

const LIGHTHOUSE_DIR = path.join(import.meta.dirname, 'lighthouse');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Lighthouse's CLI, installed on first use from its own lockfile (bench/lighthouse). */
export function lighthouseCli(log: (m: string) => void): string | { reason: string } {
  const cli = path.join(LIGHTHOUSE_DIR, 'node_modules/lighthouse/cli/index.js');
  if (!existsSync(cli)) {
    log('installing Lighthouse for the benchmark (bench/lighthouse, once)…');
    try {
      execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel', 'error'], {
        cwd: LIGHTHOUSE_DIR,
        stdio: 'inherit',
        env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1' },
      });
    } catch {
      return { reason: 'Lighthouse could not be installed (npm ci in bench/lighthouse failed)' };
    }
  }
  return cli;
}

/**
 * A headless Chromium on a debugging port, asking for pages in `language`, its cookie jar holding
 * `cookie` for `base` (set over the DevTools protocol). Started by hand, not through Playwright: Playwright holds the pages a
 * browser opens until it resumes them, and Lighthouse's would wait for ever.
 */
export async function signedInChrome(
  base: string,
  cookie: { name: string; value: string },
  language: string,
): Promise<{ port: number; close: () => Promise<void> }> {
  const port = await freePort();
  const profile = mkdtempSync(path.join(os.tmpdir(), 'voltas-lh-profile-'));
  const chrome = spawn(
    CHROMIUM,
    [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      `--accept-lang=${language}`,
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  const close = async () => {
    chrome.kill();
    await new Promise((r) => chrome.once('exit', r));
    rmSync(profile, { recursive: true, force: true });
  };
  try {
    let endpoint: string | undefined;
    for (let i = 0; i < 100 && !endpoint; i++) {
      endpoint = await fetch(`http://127.0.0.1:${port}/json/version`)
        .then((r) => r.json() as Promise<{ webSocketDebuggerUrl: string }>)
        .then((v) => v.webSocketDebuggerUrl)
        .catch(() => new Promise<undefined>((r) => setTimeout(r, 100)));
    }
    if (!endpoint) throw new Error('Chromium did not open its debugging port');
    const ws = new WebSocket(endpoint);
    await new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = reject;
    });
    const { hostname } = new URL(base);
    const done = new Promise<MessageEvent>((resolve) => (ws.onmessage = resolve));
    ws.send(
      JSON.stringify({
        id: 1,
        method: 'Storage.setCookies',
        params: { cookies: [{ ...cookie, domain: hostname, path: '/', httpOnly: true, sameSite: 'Lax' }] },
      }),
    );
    const answer = JSON.parse(String((await done).data)) as { error?: { message: string } };
    ws.close();
    if (answer.error) throw new Error(`Chromium refused the session cookie: ${answer.error.message}`);
  } catch (err) {
    await close();
    throw err;
  }
  return { port, close };
}

/**
 * The CPU slowdown that makes a host of this `benchmarkIndex` behave like Lighthouse's mid-range
 * phone, as Lighthouse's throttling documentation calibrates it (docs/throttling.md, "Calibrating
 * the CPU slowdown"; its calculator at lighthouse-cpu-throttling-calculator.vercel.app): straight
 * lines through 150 → 1×, 800 → 2×, 1300 → 3×, then 1× more per 233. Lighthouse's fixed default
 * of 4× assumes a host of about 1500; on a slower one it simulates a slower phone than that, on a
 * faster one a faster phone. Information only: the goal is the default 4× (issue 63).
 */
function cpuSlowdownFor(benchmarkIndex: number): number {
  if (benchmarkIndex >= 1300) return 3 + (benchmarkIndex - 1300) / 233;
  if (benchmarkIndex >= 800) return 2 + (benchmarkIndex - 800) / 500;
  // Below 150 the host is slower than the phone: no slowdown at all (Lighthouse calls it too slow to emulate).
  return Math.max(1, 1 + (benchmarkIndex - 150) / 650);
}

export type LighthouseRun = {
  /** The score at Lighthouse's default 4× CPU slowdown: the goal's. */
  score: number;
  /** The host's `benchmarkIndex`, measured by Lighthouse at the start of this very load. */
  benchmarkIndex: number;
  /** Total Blocking Time at 4×, ms. */
  tbtMs: number;
  /** FCP, LCP, TBT and CLS at 4×. */
  detail: string;
  /** The same load scored at the slowdown calibrated from `benchmarkIndex` (information). */
  calibratedScore: number;
  calibratedSlowdown: number;
};

interface Report {
  finalDisplayedUrl: string;
  runtimeError?: { code: string; message: string };
  categories: { performance: { score: number | null } };
  audits: Record<
    string,
    { displayValue?: string; numericValue?: number; details?: { items?: { url?: string; statusCode?: number }[] } }
  >;
}

/**
 * One page load of `url`, in the Chrome on `port` when given (signed in, started asking for pages
 * in `language`), else in one Lighthouse starts asking so; scored twice from the same load: at
 * Lighthouse's default 4×, and at the slowdown calibrated from the benchmarkIndex it measured at
 * its start. Lighthouse gathers first (-G: the trace and artifacts, BenchmarkIndex among them) and
 * then audits them (-A), where the simulated throttling is applied, so both scores are of one load.
 */
export function lighthouse(cli: string, url: string, opts: { port?: number; language: string }): LighthouseRun {
  const { port, language } = opts;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'voltas-lh-'));
  const artifacts = path.join(dir, 'artifacts');
  // VOLTAS_LH_KEEP=<folder>: each run's artifacts kept there, its trace with V8's JavaScript samples
  // (the functions of each long task; the sampling costs the load a little).
  const keep = process.env.VOLTAS_LH_KEEP;
  // Gathering and auditing must be given the same settings.
  const samples = keep ? ['--additional-trace-categories=disabled-by-default-v8.cpu_profiler'] : [];
  const run = (args: string[]) =>
    execFileSync(process.execPath, [cli, url, '--quiet', '--only-categories=performance', ...samples, ...args], {
      env: { ...process.env, CHROME_PATH: CHROMIUM },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  const artifactsFile = path.join(artifacts, 'artifacts.json');
  /**
   * The report of the gathered load at `cpuSlowdown`. Lighthouse refuses to audit with settings
   * other than the gathering's, so the multiplier is also written into the artifacts' settings: it
   * plays no part in a simulated run's gathering (the page loads unthrottled; the slowdown is
   * applied to the trace when auditing).
   */
  const audit = (name: string, cpuSlowdown: number): Report => {
    const saved = JSON.parse(readFileSync(artifactsFile, 'utf8')) as { settings: { throttling: object } };
    saved.settings.throttling = { ...saved.settings.throttling, cpuSlowdownMultiplier: cpuSlowdown };
    writeFileSync(artifactsFile, JSON.stringify(saved));
    const out = path.join(dir, `${name}.json`);
    run([
      `-A=${artifacts}`,
      '--output=json',
      `--output-path=${out}`,
      `--throttling.cpuSlowdownMultiplier=${cpuSlowdown}`,
    ]);
    return JSON.parse(readFileSync(out, 'utf8')) as Report;
  };
  try {
    run([
      `-G=${artifacts}`,
      ...(port
        ? [`--port=${port}`]
        : [`--chrome-flags=--headless=new --no-sandbox --disable-gpu --accept-lang=${language}`]),
    ]);
    const { BenchmarkIndex: benchmarkIndex } = JSON.parse(readFileSync(artifactsFile, 'utf8')) as {
      BenchmarkIndex: number;
    };
    const report = audit('default', 4);
    if (report.runtimeError) throw new Error(`Lighthouse: ${report.runtimeError.code}`);
    // A page behind the sign-in that lands on /login measured the wrong page; one whose data was
    // refused measured an error message.
    if (new URL(report.finalDisplayedUrl).pathname !== new URL(url).pathname)
      throw new Error(`Lighthouse measured ${report.finalDisplayedUrl}, not ${url}`);
    const refused =
      port &&
      (report.audits['network-requests']?.details?.items ?? []).find(
        (r) => r.url?.includes('/api/') && (r.statusCode ?? 0) >= 400,
      );
    if (refused) throw new Error(`Lighthouse's signed-in page load had ${refused.url} answer ${refused.statusCode}`);
    const score = (r: Report) => Math.round((r.categories.performance.score ?? 0) * 100);
    const a = (k: string) => report.audits[k]?.displayValue ?? '?';
    // Rounded as the CLI flag would be, so the artifacts and the flag agree exactly.
    const calibratedSlowdown = Number(cpuSlowdownFor(benchmarkIndex).toFixed(2));
    return {
      score: score(report),
      benchmarkIndex,
      tbtMs: Math.round(report.audits['total-blocking-time']?.numericValue ?? NaN),
      detail: `FCP ${a('first-contentful-paint')}, LCP ${a('largest-contentful-paint')}, TBT ${a('total-blocking-time')}, CLS ${a('cumulative-layout-shift')}`,
      calibratedScore: score(audit('calibrated', calibratedSlowdown)),
      calibratedSlowdown,
    };
  } finally {
    if (keep) cpSync(dir, path.join(keep, path.basename(dir)), { recursive: true });
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The Lighthouse rows: the performance score of /login, /laps, the analytics page and the share
 * page (/v/…, what a friend opens on a phone), mobile, with the CPU slowdown calibrated from the
 * host's `benchmarkIndex` so a score means "a mid-range phone" on any machine. Calibration: the
 * median index of the first runs of /login at Lighthouse's default 4× (their scores printed too).
 */
import { cpuSlowdownFor, lighthouse, lighthouseCli, signedInChrome, type LighthouseRun } from '../lighthouse-run';
import { fmt, log, median, result, rows, verdict } from './table';

const GOAL = 95;

/** Runs Lighthouse on `url` until `n` runs count (a run that fails is run again, up to three failures). */
function scoreRuns(cli: string, url: string, n: number, opts: { port?: number; cpuSlowdown?: number }) {
  const runs: LighthouseRun[] = [];
  let failures = 0;
  let lastError = '';
  // Lighthouse now and then loses its own trace (NO_NAVSTART): such a run is run again.
  while (runs.length < n && failures < 3) {
    try {
      runs.push(lighthouse(cli, url, opts));
    } catch (err) {
      failures++;
      // Lighthouse's own message is on stderr above; this is the first line of the failure.
      lastError = (err instanceof Error ? err.message : String(err)).split('\n')[0]!;
      log(`Lighthouse ${url}: run failed (${failures}), ${lastError}`);
    }
  }
  return { runs, failures, lastError };
}

/**
 * `session`: the rider's session cookie (the signed-in pages); `sharedPath`: the path of a share
 * link made in this run.
 */
export async function benchLighthouse(base: string, session: string, sharedPath: string, quick: boolean) {
  const cli = lighthouseCli(log);
  if (typeof cli !== 'string') {
    rows.push(['Lighthouse', `not measured: ${cli.reason}`, '', '', `≥ ${GOAL}`]);
    return;
  }
  const n = quick ? 1 : 3;

  log('Lighthouse: calibrating the CPU slowdown (/login at the default 4×)…');
  const calibration = scoreRuns(cli, `${base}/login`, quick ? 1 : 2, {});
  if (!calibration.runs.length) {
    rows.push(['Lighthouse', `not measured: calibration failed (${calibration.lastError.slice(0, 120)})`, '', '', '']);
    return;
  }
  const index = median(calibration.runs.map((r) => r.benchmarkIndex));
  const cpuSlowdown = cpuSlowdownFor(index);
  result.lighthouse_benchmark_index = index;
  result.lighthouse_cpu_slowdown = cpuSlowdown;
  rows.push([
    'Lighthouse host: benchmarkIndex → CPU slowdown',
    `index ${fmt(index, 0)} (runs ${calibration.runs.map((r) => fmt(r.benchmarkIndex, 0)).join(', ')}) → ${fmt(cpuSlowdown, 2)}×`,
    `/login at the default 4×: ${calibration.runs.map((r) => r.score).join(', ')}`,
    '',
    'mid-range phone: index ~1500 ↔ 4×',
  ]);

  // /login and the share page as a visitor; the others in a Chrome signed in as the rider.
  const signedIn = await signedInChrome(base, { name: 'voltas_session', value: session });
  try {
    const pages = [
      ['lighthouse_login', '/login', undefined],
      ['lighthouse_laps', '/laps', signedIn.port],
      ['lighthouse_analytics', '/analytics?hw=000000000900&pista=Interlagos&data=02112026', signedIn.port],
      ['lighthouse_shared', sharedPath, undefined],
    ] as const;
    for (const [key, route, port] of pages) {
      const name = key === 'lighthouse_shared' ? '/v/… (share link)' : route.split('?')[0];
      log(`Lighthouse ${name}…`);
      const { runs, failures, lastError } = scoreRuns(cli, `${base}${route}`, n, {
        cpuSlowdown,
        ...(port ? { port } : {}),
      });
      if (runs.length < n) {
        rows.push([
          `Lighthouse ${name}`,
          `not measured: ${failures} runs failed (${lastError.slice(0, 120)})`,
          '',
          '',
          `≥ ${GOAL}`,
        ]);
        continue;
      }
      const score = median(runs.map((r) => r.score));
      result[key] = score;
      const retried = failures ? `, ${failures} failed and run again` : '';
      rows.push([
        `Lighthouse ${name} (mobile at ${fmt(cpuSlowdown, 2)}×, median of ${n})`,
        `${score} (runs ${runs.map((r) => `${r.score} @${fmt(r.benchmarkIndex, 0)}`).join(', ')}${retried}; ${runs.at(-1)!.detail})`,
        '',
        verdict(score >= GOAL),
        `≥ ${GOAL}`,
      ]);
    }
  } finally {
    await signedIn.close();
  }
}

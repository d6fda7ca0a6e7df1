/**
 * The Lighthouse rows: the performance score of /login, /laps, the analytics page and the share
 * page (/v/…, what a friend opens on a phone), mobile at Lighthouse's default 4× CPU slowdown, each
 * run with the host's `benchmarkIndex` beside it (a busy minute of a shared machine lowers both);
 * the same loads scored at the slowdown calibrated from that index are information
 * (bench/lighthouse-run.ts). Pages are asked for in Portuguese, the riders' language; /laps and the
 * analytics page in English too, whose words come in one more request (Chrome's own default, en-US,
 * would measure only that page).
 */
import { lighthouse, lighthouseCli, signedInChrome, type LighthouseRun } from '../lighthouse-run';
import { fmt, log, median, result, rows, verdict } from './table';

const GOAL = 95;

/** Runs Lighthouse on `url` until `n` runs count (a run that fails is run again, up to three failures). */
function scoreRuns(cli: string, url: string, n: number, opts: { port?: number; language: string }) {
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
 * `session`: the rider's session cookie (the signed-in pages); `sharedPaths`: the paths of a session's
 * and a lap's share links made in this run; `only`: the pages to measure (login, laps, analytics,
 * shared, shared_lap, laps_en, analytics_en), else all.
 */
export async function benchLighthouse(
  base: string,
  session: string,
  sharedPaths: { session: string; lap: string },
  quick: boolean,
  only?: readonly string[],
) {
  const cli = lighthouseCli(log);
  if (typeof cli !== 'string') {
    rows.push(['Lighthouse', `not measured: ${cli.reason}`, '', '', `≥ ${GOAL}`]);
    return;
  }
  const n = quick ? 1 : 3;
  const all: LighthouseRun[] = [];

  // /login and the share page as a visitor; the others in a Chrome signed in as the rider, one
  // for each language (started when first needed).
  const signedIn = new Map<string, Awaited<ReturnType<typeof signedInChrome>>>();
  const signedInPort = async (language: string) => {
    if (!signedIn.has(language))
      signedIn.set(language, await signedInChrome(base, { name: 'voltas_session', value: session }, language));
    return signedIn.get(language)!.port;
  };
  const analytics = '/analytics?hw=000000000900&pista=Interlagos&data=02112026';
  try {
    // `goal` false: a figure to watch. A lap's link starts the app at once for its charts; the
    // share page's goal is the session's link.
    const pages = [
      { key: 'lighthouse_login', route: '/login', name: '/login', goal: true },
      { key: 'lighthouse_laps', route: '/laps', name: '/laps', signedIn: true, goal: true },
      { key: 'lighthouse_analytics', route: analytics, name: '/analytics', signedIn: true, goal: true },
      { key: 'lighthouse_shared', route: sharedPaths.session, name: '/v/… (share link)', goal: true },
      { key: 'lighthouse_shared_lap', route: sharedPaths.lap, name: "/v/… (one lap's share link)", goal: false },
      { key: 'lighthouse_laps_en', route: '/laps', name: '/laps in English', signedIn: true, goal: false },
      { key: 'lighthouse_analytics_en', route: analytics, name: '/analytics in English', signedIn: true, goal: false },
    ] as const;
    for (const { key, route, name, goal, ...page } of pages.filter(
      ({ key }) => !only || only.includes(key.replace('lighthouse_', '')),
    )) {
      const target = goal ? `≥ ${GOAL}` : '(information)';
      const language = key.endsWith('_en') ? 'en-US' : 'pt-BR';
      log(`Lighthouse ${name}…`);
      const { runs, failures, lastError } = scoreRuns(cli, `${base}${route}`, n, {
        language,
        ...('signedIn' in page ? { port: await signedInPort(language) } : {}),
      });
      all.push(...runs);
      if (runs.length < n) {
        rows.push([
          `Lighthouse ${name}`,
          `not measured: ${failures} runs failed (${lastError.slice(0, 120)})`,
          '',
          '',
          target,
        ]);
        continue;
      }
      const score = median(runs.map((r) => r.score));
      result[key] = score;
      const retried = failures ? `, ${failures} failed and run again` : '';
      rows.push([
        `Lighthouse ${name} (mobile, 4×; median of ${n})`,
        `${score} (runs ${runs.map((r) => `${r.score} at index ${fmt(r.benchmarkIndex, 0)}, TBT ${r.tbtMs} ms`).join('; ')}${retried}; last: ${runs.at(-1)!.detail})`,
        `calibrated (information): ${runs.map((r) => `${r.calibratedScore} at ${fmt(r.calibratedSlowdown, 2)}×`).join(', ')}`,
        goal ? verdict(score >= GOAL) : '',
        target,
      ]);
    }
  } finally {
    for (const chrome of signedIn.values()) await chrome.close();
  }
  if (all.length) {
    result.lighthouse_benchmark_index = median(all.map((r) => r.benchmarkIndex));
    result.lighthouse_cpu_slowdown = median(all.map((r) => r.calibratedSlowdown));
    rows.push([
      'Lighthouse host: benchmarkIndex (→ calibrated slowdown)',
      `index median ${fmt(result.lighthouse_benchmark_index, 0)} (${fmt(Math.min(...all.map((r) => r.benchmarkIndex)), 0)}–${fmt(Math.max(...all.map((r) => r.benchmarkIndex)), 0)}) → ${fmt(result.lighthouse_cpu_slowdown, 2)}×`,
      '',
      '',
      "(reported); Lighthouse's calibration: index 1533 ↔ 4×",
    ]);
  }
}

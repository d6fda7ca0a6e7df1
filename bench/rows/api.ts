/**
 * The API rows: the laps endpoint under load against a bare Fastify hello-world and against its
 * own bytes served by node:http alone (the ceiling), the heavy GPS read, and the two list pages a
 * rider opens ('Minhas sessões' with 1,000 sessions, 'Evolução' of a track ridden on 100 days).
 */
import type { GeneratedSession } from '#core/sim/session-generator.ts';
import { MAX_HEAVY_READS_IN_FLIGHT } from '#server/plugins/heavy-reads.ts';
import { cannon, httpLoad, putTimed, startCeiling } from './servers';
import { fmt, log, median, result, rows } from './table';

/** The laps answer of the bench rider's 60-lap session, asked as a browser asks (cookie, encodings). */
function lapsRequest(base: string, cookie: string) {
  return {
    lapsUrl: `${base}/api/devices/000000000900/sessions/Interlagos/01112026/laps`,
    lapsHeaders: { cookie, 'accept-encoding': 'gzip, deflate, br' },
  };
}

export async function benchApiLoad(base: string, helloPort: number, cookie: string, dataDir: string, quick: boolean) {
  const { lapsUrl, lapsHeaders } = lapsRequest(base, cookie);
  // Both servers warmed up first (V8 optimizes a route after some thousands of requests), then
  // measured in alternating rounds, so that a slow spell of this shared machine hits both; the
  // ratios are the medians of the per-round ratios, the figures those of the median round.
  const helloUrl = `http://127.0.0.1:${helloPort}/`;
  // The ceiling: the laps answer's own bytes and headers (Brotli, as the browser gets them)
  // served by node:http alone, without a framework, sign-in or database.
  const ceilingUrl = await startCeiling(lapsUrl, lapsHeaders, dataDir);
  await cannon(helloUrl, {}, quick ? 2 : 3);
  await cannon(lapsUrl, lapsHeaders, quick ? 2 : 3);
  await cannon(ceilingUrl, lapsHeaders, quick ? 1 : 2);
  type Load = Awaited<ReturnType<typeof cannon>>;
  const rounds: { hello: Load; laps: Load; ceiling: Load }[] = [];
  for (let i = 0; i < (quick ? 1 : 3); i++) {
    const helloRun = await cannon(helloUrl, {}, quick ? 3 : 10);
    const lapsRun = await cannon(lapsUrl, lapsHeaders, quick ? 3 : 10);
    rounds.push({ hello: helloRun, laps: lapsRun, ceiling: await cannon(ceilingUrl, lapsHeaders, quick ? 3 : 10) });
  }
  // The round whose ratio is the median: its figures are the ones shown.
  const medianRound = (ratio: (r: (typeof rounds)[number]) => number) =>
    [...rounds].sort((a, b) => ratio(a) - ratio(b))[rounds.length >> 1]!;
  const { hello, laps } = medianRound((r) => r.laps.rps / r.hello.rps);
  const { ceiling, hello: helloOfCeiling } = medianRound((r) => r.ceiling.rps / r.hello.rps);
  result.ceiling_vs_hello = ceiling.rps / helloOfCeiling.rps;
  result.laps_api_vs_ceiling = median(rounds.map((r) => r.laps.rps / r.ceiling.rps));
  const lapsErrors = rounds.reduce((n, r) => n + r.laps.errors, 0);
  const gps = await httpLoad(
    `${base}/api/devices/000000000900/sessions/Interlagos/02112026/gps.bin`,
    { cookie, 'accept-encoding': 'gzip' },
    // One rider's allowance of heavy reads in flight (server/src/plugins/heavy-reads.ts).
    MAX_HEAVY_READS_IN_FLIGHT,
    quick ? 3 : 10,
  );
  result.laps_api_vs_hello = laps.rps / hello.rps;
  result.laps_api_p99_vs_hello = median(rounds.map((r) => r.laps.p99 / Math.max(1, r.hello.p99)));
  result.laps_api_errors = lapsErrors;
  result.gps_api_vs_hello = gps.rps / hello.rps;
  const line = (r: typeof hello) => `${fmt(r.rps, 0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.errors} errors`;
  rows.push(
    ['API hello-world (baseline)', line(hello), '', '1×', ''],
    [
      `API laps (60 laps; median of ${rounds.length} rounds, ${lapsErrors} errors in all)`,
      line(laps),
      'hello-world',
      `${fmt(result.laps_api_vs_hello, 2)}× req/s, ${fmt(result.laps_api_p99_vs_hello, 2)}× p99`,
      '0 errors (ratios: information; `npm run load` is the goal)',
    ],
    [
      `API laps answer's bytes, node:http alone (the ceiling)`,
      line(ceiling),
      'hello-world',
      `${fmt(result.ceiling_vs_hello, 2)}× req/s (laps reaches ${fmt(result.laps_api_vs_ceiling, 2)}× of it)`,
      '(reported)',
    ],
    [
      'API gps.bin (100k samples, node:http client)',
      `${line(gps)}, ${fmt(gps.mbps, 0)} MB/s`,
      'hello-world',
      `${fmt(result.gps_api_vs_hello, 3)}× req/s`,
      '',
    ],
  );
}

/**
 * 'Minhas sessões' and 'Evolução': `listTokens` (nine devices) and `progressTokens` (two) upload
 * the sessions, each a copy of `sixty`'s lap.six.
 */
export async function benchLists(
  base: string,
  cookie: string,
  sixty: GeneratedSession,
  listTokens: string[],
  progressTokens: string[],
) {
  const { lapsUrl, lapsHeaders } = lapsRequest(base, cookie);
  // 3a. 'Minhas sessões' with 1,000 sessions: the first page against the laps answer, each asked
  // 200 times one after another (as one rider does), medians.
  log('Minhas sessões: 1,000 sessions…');
  const circuits = ['Interlagos', 'Curitiba', 'Monza', 'Silverstone'];
  const lapSix = Buffer.from(sixty.lapSix);
  for (let k = 0; k < 1000; k++) {
    const day = new Date(Date.UTC(2023, 0, 1 + Math.floor(k / 4)));
    const date = `${String(day.getUTCDate()).padStart(2, '0')}${String(day.getUTCMonth() + 1).padStart(2, '0')}${day.getUTCFullYear()}`;
    await putTimed(`${base}/api/device/v1/sessions/${circuits[k % 4]}/${date}/lap.six`, lapSix, {
      authorization: `Bearer ${listTokens[k % 9]}`,
    });
  }
  const sequential = async (url: string) => {
    const ts: number[] = [];
    for (let i = 0; i < 220; i++) {
      const t = performance.now();
      const res = await fetch(url, { headers: lapsHeaders });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
      if (i >= 20) ts.push(performance.now() - t); // the first 20 warm the route up
    }
    return median(ts);
  };
  const listMs = await sequential(`${base}/api/sessions?limit=20`);
  const lapsMs = await sequential(lapsUrl);
  result.sessions_list_vs_laps = listMs / lapsMs;
  rows.push([
    "API 'Minhas sessões', first page of 1,000 sessions",
    `${fmt(listMs, 2)} ms`,
    `laps answer ${fmt(lapsMs, 2)} ms`,
    `${fmt(result.sessions_list_vs_laps, 2)}×`,
    '≤ 2×',
  ]);

  // 3a'. 'Evolução' of a track ridden on 100 days (one rider's sessions there, each a 60-lap
  // lap.six): the answer's time over loopback, an upper bound of the server's time.
  log('Evolução: a track with 100 days…');
  for (let k = 0; k < 100; k++) {
    const day = new Date(Date.UTC(2024, 0, 1 + k * 3));
    const date = `${String(day.getUTCDate()).padStart(2, '0')}${String(day.getUTCMonth() + 1).padStart(2, '0')}${day.getUTCFullYear()}`;
    await putTimed(`${base}/api/device/v1/sessions/Cascavel/${date}/lap.six`, lapSix, {
      authorization: `Bearer ${progressTokens[k % 2]}`,
    });
  }
  const progressUrl = `${base}/api/sessions/progress?track=Cascavel`;
  const progressDays = ((await (await fetch(progressUrl, { headers: lapsHeaders })).json()) as { days: unknown[] }).days
    .length;
  if (progressDays !== 100) throw new Error(`'Evolução' answered ${progressDays} days, not 100`);
  const progressMs = await sequential(progressUrl);
  result.progress_100_days_ms = progressMs;
  rows.push([
    "API 'Evolução', a track with 100 days",
    `${fmt(progressMs, 2)} ms`,
    '',
    `${fmt(progressMs, 2)} ms`,
    '< 200 ms',
  ]);
}

/**
 * The coaching read (issue 62) of a 30-minute session at 25 Hz against the laps read of the same
 * session, asked in turn 100 times each once the analysis job has studied it: a read, so within 2×.
 */
export async function benchCoaching(base: string, cookie: string, token: string, session: GeneratedSession) {
  const { lapsHeaders } = lapsRequest(base, cookie);
  const at = `${base}/api/devices/000000000900/sessions/Interlagos/03112026`;
  const auth = { authorization: `Bearer ${token}` };
  await putTimed(`${base}/api/device/v1/sessions/Interlagos/03112026/lap.six`, Buffer.from(session.lapSix), auth);
  await putTimed(`${base}/api/device/v1/sessions/Interlagos/03112026/gps.six`, Buffer.from(session.gpsSix), auth);
  // The job studies it 2 s after it arrives: the first read waits for nothing then.
  await new Promise((r) => setTimeout(r, 5000));
  // One request of each in turn, 110 times (the first 10 warm up): a busy spell of this shared
  // machine slows both alike, where 100 of one then 100 of the other could catch only one.
  const lapsUrl = `${at}/laps`;
  const coachingUrl = `${at}/coaching?ref=ideal`;
  const times: Record<string, number[]> = { [lapsUrl]: [], [coachingUrl]: [] };
  for (let i = 0; i < 110; i++)
    for (const url of [lapsUrl, coachingUrl]) {
      const t = performance.now();
      const res = await fetch(url, { headers: lapsHeaders });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
      if (i >= 10) times[url]!.push(performance.now() - t);
    }
  const lapsMs = median(times[lapsUrl]!);
  const coachingMs = median(times[coachingUrl]!);
  result.coaching_vs_laps = Number(fmt(coachingMs / lapsMs, 2));
  rows.push([
    `API coaching read, 30 min at 25 Hz (${session.sampleCount} samples)`,
    `${fmt(coachingMs, 2)} ms`,
    `laps answer ${fmt(lapsMs, 2)} ms`,
    `${fmt(result.coaching_vs_laps, 2)}×: ${result.coaching_vs_laps <= 2 ? 'ok' : 'over'}`,
    '≤ 2×',
  ]);
}

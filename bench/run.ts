/**
 * `npm run bench [-- --quick] [-- --json]`: what riders wait for, each against a baseline measured
 * in the same run on the same machine. Prints a table of figures and ratios; with --json, a last
 * line of JSON. Machines here are noisy: read the ratios, medians of several runs. The rows live
 * in bench/rows/; this file starts the servers and runs them in order.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateSession } from '#core/sim/session-generator.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { Browser, freePort } from '#test/test-server.ts';
import { benchImports } from './imports';
import { benchVideoSync } from './video';
import { benchAbuse } from './rows/abuse';
import { benchApiLoad, benchCoaching, benchLists } from './rows/api';
import { benchTypicalImports, TYPICAL_IMPORT_GOAL } from './rows/import-typical';
import { benchLighthouse } from './rows/lighthouse';
import { benchParsing } from './rows/parse';
import { children, putTimed, ROOT, start } from './rows/servers';
import { fmt, log, printTable, result, rows, verdict } from './rows/table';
import { benchUpload } from './rows/upload';
import { benchFleet } from './rows/fleet';
import { benchJsSizes, benchWeb } from './rows/web';
import { ensureChromium } from '../scripts/ensure-chromium.mjs';

const args = new Set(process.argv.slice(2));
const QUICK = args.has('--quick');
const JSON_OUT = args.has('--json');
/** `--parse-only`: the parsing and growth rows alone (seconds, no build, no servers, no browser). */
const PARSE_ONLY = args.has('--parse-only');
/** Only the web rows (Chromium, Lighthouse): for working on a page's speed. */
const WEB_ONLY = args.has('--web-only');
/** `--goals-only`: the rows with a goal a rider feels (typical imports, upload, Lighthouse). */
const GOALS_ONLY = args.has('--goals-only');
/**
 * `--only api`: the API load rows alone (laps, its ceiling and gps.bin against hello-world);
 * `--only abuse`: the ordinary rider's p99 while another hammers heavy reads (scripts/abuse.ts);
 * `--only import`: the typical import rows alone; `--only upload`: the full-day upload row alone
 * (no build, no other rows, no browser); `--only lighthouse [--pages laps,analytics]`: the build and
 * the Lighthouse rows alone (of the pages named: login, laps, analytics, shared, shared_lap, laps_en,
 * analytics_en).
 */
const onlyAt = process.argv.indexOf('--only');
const ONLY = onlyAt > 0 ? process.argv[onlyAt + 1] : undefined;
if (ONLY !== undefined && !['api', 'abuse', 'import', 'upload', 'lighthouse', 'fleet', 'coaching'].includes(ONLY))
  throw new Error(`--only api|abuse|import|upload|lighthouse|fleet|coaching, not ${ONLY}`);
/** `--no-lighthouse`: skip the Lighthouse rows (each run takes ~12 s; the first one installs it). */
const LIGHTHOUSE = !args.has('--no-lighthouse') && (!ONLY || ONLY === 'lighthouse');
/** `--pages=login,shared` or `--pages login,shared`: only these Lighthouse rows (keys without `lighthouse_`). */
const PAGES = /--pages[ =](\S+)/.exec(process.argv.slice(2).join(' '))?.[1]?.split(',');

const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;
log('generating sessions…');
const big = generateSession(interlagos, { seed: 1, heats: 4, lapsPerHeat: [21, 21] }); // ~110k samples
const sixty = generateSession(interlagos, { seed: 2, heats: 4, lapsPerHeat: [13, 13] }); // 60 laps
const tenMb = generateSession(interlagos, { seed: 3, heats: 4, lapsPerHeat: [31, 31] }); // ~10 MB gps.six
const halfHour = generateSession(interlagos, { seed: 6, hz: 25, heats: 1, lapsPerHeat: [14, 14] }); // 30 min at 25 Hz

/** The row groups that failed: each is reported where it fails, the others still run, and the bench exits 1. */
const failed: string[] = [];
async function rowGroup(name: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (err) {
    failed.push(name);
    process.stderr.write(
      `bench: ${name} failed (the other rows go on): ${err instanceof Error ? err.stack : String(err)}\n`,
    );
  }
}

async function main() {
  if (!GOALS_ONLY && !ONLY) {
    benchParsing({ quick: QUICK, interlagos, big, sixty });
    for (const v of await benchVideoSync(QUICK)) {
      result.video_sync_vs_read ??= Number(fmt(v.ratio, 2));
      rows.push([
        `Video sync: ${v.label}`,
        `${fmt(v.syncMs, 1)} ms (${fmt(v.readKb, 0)} KB of ${fmt(v.sizeMb, 0)} MB read)`,
        `reading those bytes alone ${fmt(v.readMs, 2)} ms`,
        `${fmt(v.ratio, 1)}×`,
        '(reported)',
      ]);
    }
  }
  if (PARSE_ONLY) return;
  if (ONLY === 'abuse') {
    log('abuse: one rider hammering heavy reads…');
    await rowGroup('abuse', async () => benchAbuse());
    return;
  }
  if (ONLY === 'fleet') {
    await rowGroup('fleet', () => benchFleet(sixty, QUICK));
    return;
  }

  if (!ONLY || ONLY === 'lighthouse') {
    log('building the web app…');
    execFileSync(
      process.execPath,
      ['node_modules/vite/bin/vite.js', 'build', '--config', 'web/vite.config.ts', '--manifest', '--logLevel', 'warn'],
      { cwd: ROOT, stdio: 'inherit' },
    );
    benchJsSizes();
    // The browser rows drive Debian's Chromium, installed as the tests install it.
    ensureChromium();
  }

  log('starting servers…');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'voltas-bench-'));
  // Removed however the bench ends (a failed set-up included): it holds hundreds of MB of sessions.
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  const helloPort = await freePort();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  await start(['bench/hello-server.mjs', String(helloPort)], {}, /ready/);
  const env = { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  /** Registers a device of the bench rider with the CLI; its upload token (the last line). */
  const addDevice = (id: string) =>
    execFileSync(process.execPath, ['bin/voltas.mjs', 'device', 'add', id, '--owner', 'bench@example.com'], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    })
      .toString()
      .trim()
      .split('\n')
      .at(-1)!;
  const token = addDevice('000000000900');
  // Nine more devices of the same rider hold the 1,000 sessions of 'Minhas sessões' (the first
  // one's tracks and dates stay as the pages below expect them; a device may upload 120 files a minute).
  const listTokens = Array.from({ length: 9 }, (_, k) => addDevice(`00000000091${k}`));
  // Two more for 'Evolução''s 100 days (the first nine have spent their uploads of the minute).
  const progressTokens = Array.from({ length: 2 }, (_, k) => addDevice(`00000000092${k}`));
  await start(['bin/voltas.mjs', 'serve'], env, /Voltas is running/);
  const auth = { authorization: `Bearer ${token}` };
  await putTimed(`${base}/api/device/v1/sessions/Interlagos/01112026/lap.six`, Buffer.from(sixty.lapSix), auth);
  await putTimed(`${base}/api/device/v1/sessions/Interlagos/01112026/gps.six`, Buffer.from(sixty.gpsSix), auth);
  await putTimed(`${base}/api/device/v1/sessions/Interlagos/02112026/lap.six`, Buffer.from(big.lapSix), auth);
  await putTimed(`${base}/api/device/v1/sessions/Interlagos/02112026/gps.six`, Buffer.from(big.gpsSix), auth);
  const rider = new Browser(base);
  await rider.signIn('bench@example.com');
  const cookie = rider.cookieHeader();
  const session = rider.cookies.get('voltas_session')!;

  if (!WEB_ONLY && ONLY !== 'lighthouse') {
    if ((!GOALS_ONLY && !ONLY) || ONLY === 'api') {
      log('load: hello-world, laps, gps…');
      await rowGroup('API load', () => benchApiLoad(base, helloPort, cookie, dataDir, QUICK));
    }

    if (!ONLY || ONLY === 'upload') {
      log('upload: 10 MB gps.six…');
      await rowGroup('upload', () => benchUpload(base, helloPort, token, Buffer.from(tenMb.gpsSix), QUICK ? 3 : 7));
    }

    if (ONLY === 'coaching') {
      log('coaching: a 30-minute session at 25 Hz…');
      await rowGroup('coaching', () => benchCoaching(base, cookie, token, halfHour));
    }
    if (!GOALS_ONLY && !ONLY) {
      await rowGroup('lists', () => benchLists(base, cookie, sixty, listTokens, progressTokens));
      log('coaching: a 30-minute session at 25 Hz…');
      await rowGroup('coaching', () => benchCoaching(base, cookie, token, halfHour));
      log('fleet: check-ins and 200 firmware downloads…');
      await rowGroup('fleet', () => benchFleet(sixty, QUICK));

      // Imports of 50 MB files, each into a fresh server of its own (its memory read from /proc).
      log('imports: 50 MB RaceChrono CSV, VBO and GPX…');
      await rowGroup('50 MB imports', async () => {
        for (const r of await benchImports(ROOT, interlagos, QUICK)) {
          result[r.key] = r.ratio;
          result[r.key.replace(/_vs_.*/, '_memory_mb')] = r.memoryGrowthMb;
          rows.push([
            `import ${r.label}`,
            `${fmt(r.mb)} MB in ${fmt(r.importMs, 0)} ms (${r.laps} laps); server memory +${fmt(r.memoryGrowthMb, 0)} MB`,
            `${r.baseline} ${fmt(r.baselineMs, 0)} ms`,
            `${fmt(r.ratio, 2)}×`,
            // Parser against parser: information since issue 36 (the typical-import rows are the goal).
            'ratio: information; memory < 50 MB',
          ]);
        }
      });
    }

    if (!ONLY || ONLY === 'import') {
      log('imports: a typical 30-minute session (CSV, VBO, GPX)…');
      await rowGroup('typical imports', async () => {
        for (const r of await benchTypicalImports(base, cookie, interlagos, QUICK ? 3 : 7)) {
          result[r.key] = r.ratio;
          rows.push([
            `import, typical ${r.label} (30 min at 25 Hz)`,
            `${fmt(r.mb)} MB imported and readable in ${fmt(r.importMs, 0)} ms; median of ${r.runs} (its gps.six alone: written in ${fmt(r.writeMs, 0)} ms)`,
            `${r.parser} parse ${fmt(r.parseMs, 0)} ms`,
            `${fmt(r.ratio, 2)}×: ${verdict(r.ratio <= TYPICAL_IMPORT_GOAL)}`,
            `≤ ${TYPICAL_IMPORT_GOAL}×`,
          ]);
        }
      });
    }
  }

  // On a server of its own (the bench's stay idle meanwhile).
  if (!ONLY && !WEB_ONLY) {
    log('abuse: one rider hammering heavy reads…');
    await rowGroup('abuse', async () => benchAbuse());
  }

  // Web, in Chromium. First the server finishes what the uploads left it (each 10 MB upload's
  // columns are derived after its answer): pages are timed on an idle server, not against that.
  if (!ONLY) await new Promise((r) => setTimeout(r, 3000));
  if (!GOALS_ONLY && !ONLY) await rowGroup('Chromium rows', () => benchWeb(base, session, QUICK));

  if (LIGHTHOUSE) {
    // The share page as a friend opens it: links to the 100k-sample session and to one of its laps, made by the rider.
    const shareLink = async (lap?: string) => {
      const share = await rider.json('/api/shares', {
        method: 'POST',
        body: JSON.stringify({
          device: '000000000900',
          track: 'Interlagos',
          date: '02112026',
          ...(lap ? { lap } : {}),
        }),
      });
      if (share.status !== 201) throw new Error(`making a share link: ${share.status} ${JSON.stringify(share.body)}`);
      return new URL((share.body as { url: string }).url).pathname;
    };
    await rowGroup('Lighthouse', async () =>
      benchLighthouse(base, session, { session: await shareLink(), lap: await shareLink('A3') }, QUICK, PAGES),
    );
  }

  for (const c of children) c.kill('SIGTERM');
}

main()
  .then(() => {
    printTable(JSON_OUT);
    if (failed.length) {
      process.stderr.write(`bench: ${failed.join(', ')} failed (above); their rows are missing or null\n`);
      process.exit(1);
    }
  })
  .catch((err: unknown) => {
    for (const c of children) c.kill('SIGTERM');
    process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    printTable(JSON_OUT);
    process.exit(1);
  });

/**
 * The web rows in Chromium: the JS a route loads (from Vite's manifest), the laps table after
 * 'Carregar', the analytics page's first map and chart, and the clip export.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT } from './servers';
import { fmt, log, median, result, rows } from './table';

/** The gzip size of the JS for /login and /laps, from the build's manifest. */
export function benchJsSizes(): void {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'dist/web/.vite/manifest.json'), 'utf8'));
  const lapsKey = Object.keys(manifest).find((k) => k.includes('features/laps/laps-page'))!;
  // /login is written by the server into first-screen.html (its own small entry); /laps is the app's.
  result.login_js_gzip_kb = jsForRoute(manifest, ['first-screen.html']);
  result.laps_js_gzip_kb = jsForRoute(manifest, ['index.html', lapsKey]);
  rows.push(
    ['JS for /login (gzip)', `${fmt(result.login_js_gzip_kb)} KB`, '', '', '≤ 110 KB'],
    ['JS for /laps (gzip)', `${fmt(result.laps_js_gzip_kb)} KB`, '', '', '≤ 170 KB'],
  );
}

/** The Chromium rows, signed in as the rider (`session`: the session cookie) on the server at `base`. */
export async function benchWeb(base: string, session: string, quick: boolean): Promise<void> {
  // 4. Web, in Chromium. First the server finishes what the uploads left it (each 10 MB upload's
  // columns are derived after its answer): pages are timed on an idle server, not against that.
  await new Promise((r) => setTimeout(r, 3000));
  log('Chromium: laps table, analytics first paint…');
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  // Closed whatever happens: a row that fails must not leave the bench waiting on its browser.
  try {
    const runs = quick ? 2 : 5;
    const lapsTimes: number[] = [];
    const analyticsTimes: number[] = [];
    for (let i = 0; i < runs; i++) {
      // In Portuguese, the riders' language (the app follows the browser's, which is en-US unless told).
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'pt-BR' });
      await context.addCookies([{ name: 'voltas_session', value: session, url: base }]);
      const page = await context.newPage();
      await page.goto(`${base}/laps`);
      await page.locator('#sel-date').selectOption('01112026');
      // In-page functions without named inner helpers (tsx would inject a helper the page lacks;
      // the app's CSP rightly forbids evaluating strings).
      lapsTimes.push(
        await page.evaluate(async () => {
          const t0 = performance.now();
          (document.querySelector('form.selector button[type=submit]') as HTMLButtonElement).click();
          while (!document.querySelector('.lap-best')) await new Promise((r) => requestAnimationFrame(r));
          return performance.now() - t0;
        }),
      );
      // The laps page settles first: navigating the moment its table shows counted the end of that
      // page's work in the analytics load (+35 to +70 ms median on the same build, 8-10 loads each;
      // two frames' wait took back half of it).
      await page.waitForTimeout(500);
      await page.goto(`${base}/analytics?hw=000000000900&pista=Interlagos&data=02112026`);
      await page.waitForFunction(() => performance.getEntriesByName('voltas:map-painted').length > 0, undefined, {
        timeout: 30_000,
      });
      // On a phone the charts lie below the map and are drawn when scrolled to: scrolled to at once,
      // as a rider who goes straight for them would.
      await page.getByTestId('chart-speed').scrollIntoViewIfNeeded();
      await page.waitForFunction(() => performance.getEntriesByName('voltas:chart-painted').length > 0, undefined, {
        timeout: 30_000,
      });
      analyticsTimes.push(
        await page.evaluate(() =>
          Math.max(
            performance.getEntriesByName('voltas:map-painted')[0]!.startTime,
            performance.getEntriesByName('voltas:chart-painted')[0]!.startTime,
          ),
        ),
      );
      await context.close();
    }
    result.laps_table_ms = median(lapsTimes);
    result.analytics_100k_ms = median(analyticsTimes);
    rows.push(
      ["'Carregar' → laps table (60 laps)", `${fmt(result.laps_table_ms, 0)} ms`, '', '', ''],
      [
        'analytics load → first chart + map (100k samples)',
        `${fmt(result.analytics_100k_ms, 0)} ms`,
        '',
        '',
        '< 300 ms (issue 7), < 500 ms (issue 5)',
      ],
    );
    log('Chromium: clip export…');
    const clip = await benchClipExport(browser, base, session, quick ? 1 : 3);
    result.clip_export_720p_x_realtime = clip.speed;
    rows.push([
      'clip export, 10 s at 720p with the data drawn (WebCodecs H.264, in a worker)',
      `${fmt(clip.speed, 2)} s of clip per s of work (runs ${clip.runs.map((r) => fmt(r, 2)).join(', ')})`,
      'real time: 1 s per s',
      `${fmt(clip.speed, 2)}×`,
      '(reported)',
    ]);
  } finally {
    await browser.close();
  }
}

/**
 * The rider's clip export (issue 37): the sample GoPro video picked on the analytics page, synced
 * by hand at its start, its 10 s exported at 720p; the export's own time (the worker's, from
 * the demuxer's start to the muxed file). Median of `runs`.
 */
async function benchClipExport(
  browser: import('@playwright/test').Browser,
  base: string,
  session: string,
  runs: number,
) {
  const sample = path.resolve(ROOT, '../shared/data/video/max-heromode.mp4');
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'pt-BR' });
  await context.addCookies([{ name: 'voltas_session', value: session, url: base }]);
  const page = await context.newPage();
  await page.goto(`${base}/analytics?hw=000000000900&pista=Interlagos&data=02112026`);
  await page.getByTestId('video-file').setInputFiles(sample, { timeout: 60_000 });
  await page.getByTestId('video-player').waitFor({ timeout: 60_000 });
  // Marked by hand at its start; the manual marks are folded away when the video synced itself.
  const manual = page.locator('details.video-manual');
  if (!(await manual.evaluate((d: HTMLDetailsElement) => d.open))) await manual.locator('summary').click();
  await page.getByRole('button', { name: 'Marcar: cruzando a linha agora' }).click();
  await page.getByText('Exportar clipe com os dados').click();
  await page.getByTestId('clip-to').fill('10');
  const speeds: number[] = [];
  for (let i = 0; i < runs; i++) {
    await page.getByRole('button', { name: 'Exportar MP4' }).click();
    const done = page.getByTestId('clip-done');
    await done.waitFor({ state: 'detached' });
    await done.waitFor({ timeout: 300_000 });
    speeds.push(
      Number(await done.getAttribute('data-seconds')) / (Number(await done.getAttribute('data-work-ms')) / 1000),
    );
  }
  await context.close();
  return { speed: median(speeds), runs: speeds };
}

function jsForRoute(
  manifest: Record<string, { file: string; imports?: string[]; isEntry?: boolean; src?: string }>,
  entries: string[],
): number {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imp of chunk.imports ?? []) visit(imp);
  };
  for (const e of entries) visit(e);
  let bytes = 0;
  for (const f of files) bytes += gzipSync(readFileSync(path.join(ROOT, 'dist/web', f))).length;
  return bytes / 1024;
}

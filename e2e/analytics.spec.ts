import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { E2E_DATA_DIR } from '../playwright.config';
import { expect, heavyGet, holdAnswers, type Locator, type Page, signIn, test, uniqueEmail } from './fixtures';

/** Counts pixels that differ from the canvas background: a drawn canvas is not blank. */
async function paintedPixels(canvas: Locator): Promise<number> {
  return canvas.evaluate((el: HTMLCanvasElement) => {
    const ctx = el.getContext('2d')!;
    const { data } = ctx.getImageData(0, 0, el.width, el.height);
    const [r0, g0, b0] = [data[0], data[1], data[2]];
    let n = 0;
    for (let i = 0; i < data.length; i += 4)
      if (Math.abs(data[i]! - r0!) + Math.abs(data[i + 1]! - g0!) + Math.abs(data[i + 2]! - b0!) > 30) n++;
    return n;
  });
}

const speedText = (kmh: number) => `${kmh.toFixed(1).replace('.', ',')} km/h`;
const leanText = (deg: number) => `${Math.round(Math.abs(deg))}° ${deg < 0 ? 'E' : 'D'}`;

async function openShared(page: Page) {
  await signIn(page, { email: 'piloto@voltas.local' });
  await page.goto('/analytics?hw=000000000042&pista=Interlagos&data=15112026');
}

test('analytics from a shared URL: server figures, map and charts drawn', async ({ page }) => {
  // The GPS file is downloaded and decoded off the page's main thread.
  const gpsWorker = page.waitForEvent('worker', { predicate: (w) => w.url().includes('gps-worker') });
  await openShared(page);
  await gpsWorker;
  await expect(page.getByRole('heading', { name: /Seleção de Laps/ })).toContainText('000000000042');
  const server = await (await heavyGet(page, '/api/devices/000000000042/sessions/Interlagos/15112026/analysis')).json();
  // The top speed of the flying laps the list shows (an in-lap's start at the line names no lap).
  const listed = await (
    await heavyGet(page, '/api/devices/000000000042/sessions/Interlagos/15112026/track-analysis')
  ).json();
  const flying = new Set(
    (listed.laps as { heat: string; number: number; kind: string }[])
      .filter((l) => l.kind === 'flying')
      .map((l) => `${l.heat}${l.number}`),
  );
  const top = Math.max(
    ...(server.laps as { heat: string; lapCount: number; topSpeedKmh: number }[])
      .filter((l) => flying.has(`${l.heat}${l.lapCount}`))
      .map((l) => l.topSpeedKmh),
  );
  await expect(page.getByTestId('top-speed')).toHaveText(speedText(top));
  await expect(page.getByTestId('lean-left')).toHaveText(leanText(server.maxLeanLeftDeg));
  await expect(page.getByTestId('lean-right')).toHaveText(leanText(server.maxLeanRightDeg));

  // On a phone the charts lie below the map: each is drawn when the rider scrolls to it.
  await page.getByTestId('chart-speed').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('chart-speed')).toHaveAttribute('data-ready', 'true');
  await expect.poll(() => paintedPixels(page.getByTestId('track-map'))).toBeGreaterThan(2000);
  await expect.poll(() => paintedPixels(page.getByTestId('chart-speed').locator('canvas'))).toBeGreaterThan(500);
  await page.getByTestId('chart-lean').scrollIntoViewIfNeeded();
  await expect.poll(() => paintedPixels(page.getByTestId('chart-lean').locator('canvas'))).toBeGreaterThan(500);

  // Shared cursor: hovering the speed chart marks the map; hovering the map moves the chart cursor.
  const map = page.getByTestId('track-map');
  const over = page.getByTestId('chart-speed').locator('.u-over');
  const chartBox = (await over.boundingBox())!;
  await over.hover({ position: { x: chartBox.width * 0.3, y: chartBox.height / 2 } });
  await expect(map).toHaveAttribute('data-cursor', /^\d+$/);
  // The cursor's dot is drawn on its own layer over the map.
  await expect.poll(() => paintedPixels(page.locator('.track-map canvas.map-cursor'))).toBeGreaterThan(50);
  // The legend reads the Brazilian way whatever the browser's language (this one's is English):
  // whole metres with a '.' between thousands, the speed with one decimal after a ','.
  const legend = page.getByTestId('chart-speed').locator('.u-legend .u-series .u-value');
  await expect(legend.nth(0)).toHaveText(/^\d{1,3}(\.\d{3})*$/);
  await expect(legend.nth(1)).toHaveText(/^\d{1,3},\d$/);
  const fromChart = await map.getAttribute('data-cursor');
  await page.mouse.move(0, 0);
  const cursor = page.getByTestId('chart-speed').locator('.u-cursor-x');
  const mapBox = (await map.boundingBox())!;
  let onTrack = false;
  for (let k = 0; k < 60 && !onTrack; k++) {
    await map.hover({
      position: { x: mapBox.width * (0.1 + (k % 10) / 12), y: mapBox.height * (0.15 + Math.floor(k / 10) / 8) },
    });
    onTrack = /^\d+$/.test((await map.getAttribute('data-cursor')) ?? '');
  }
  expect(onTrack).toBe(true);
  expect(await map.getAttribute('data-cursor')).not.toBe(fromChart);
  await expect.poll(() => cursor.evaluate((el) => getComputedStyle(el).transform)).not.toBe('none');

  // Choose a second lap: the delta chart appears and the URL keeps the choice. The lap table is
  // drawn as the rider scrolls towards it.
  const lapsTable = page.getByRole('region', { name: 'Voltas da sessão' });
  await lapsTable.scrollIntoViewIfNeeded();
  const a3 = page.getByRole('checkbox', { name: /volta A3 nos gráficos/ });
  const wasChecked = await a3.isChecked();
  await a3.click();
  await expect(a3).toBeChecked({ checked: !wasChecked });
  if (wasChecked) {
    await page.getByRole('checkbox', { name: /volta A2 nos gráficos/ }).click();
    await a3.click();
  }
  await expect(page).toHaveURL(/voltas=/);
  // Charts are drawn as they come into view.
  await page.getByTestId('chart-delta').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('chart-delta')).toHaveAttribute('data-ready', 'true');
  // Controlled by the address (an async navigation): click, then wait for the state.
  await page.getByRole('radio', { name: 'inclinação' }).click();
  await expect(page.getByRole('radio', { name: 'inclinação' })).toBeChecked();
  await expect(page).toHaveURL(/cor=inclinacao/);
  await page.reload();
  await page.getByTestId('chart-speed').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('chart-speed')).toHaveAttribute('data-ready', 'true');
  await lapsTable.scrollIntoViewIfNeeded();
  await expect(page.getByRole('checkbox', { name: /volta A3 nos gráficos/ })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'inclinação' })).toBeChecked();
  // Weak GPS fixes are flagged per lap when present; every lap shows satellites and sample rate.
  await expect(page.getByTestId('figures-row').first()).toContainText(/\d+,\d/);
});

// Decision 002: the server validated every answer, so these pages read them as their types and
// never load zod; the video readers (mp4box) load only once a video is picked (decision 031).
test('/laps and the analytics page load no zod, and no video reader before a video is picked', async ({ page }) => {
  /** The scripts this document has loaded (not its workers'), as the browser lists them. */
  const scripts = () =>
    page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => e.name)
        .filter((url) => url.endsWith('.js')),
    );
  await signIn(page, { email: 'piloto@voltas.local' });
  await page.goto('/laps?hw=000000000042&pista=Interlagos&data=15112026');
  await expect(page.getByRole('rowgroup').getByText('Bateria A')).toBeVisible();
  await expect(page.getByTestId('ideal-lap')).toHaveAttribute('aria-busy', 'false');
  await page.getByRole('link', { name: 'Análise' }).click();
  await page.getByTestId('chart-speed').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('chart-speed')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('video-panel')).toBeVisible();
  // Live updates are listening (their code loads when the browser is idle).
  await expect.poll(async () => (await scripts()).some((url) => url.includes('/live-updates-'))).toBe(true);
  const bodies = await page.evaluate(
    (urls) => Promise.all(urls.map(async (url) => ({ url, body: await (await fetch(url)).text() }))),
    await scripts(),
  );
  // zod's classes are named `$Zod…` (kept by the minifier as strings); mp4box names itself.
  expect(bodies.filter((s) => /\$ZodType|MP4Box/.test(s.body)).map((s) => s.url)).toEqual([]);
});

test('a foreign hardware in the address gets a clear message, not a broken page', async ({ page }) => {
  await signIn(page, { email: uniqueEmail('curioso') });
  await page.goto('/analytics?hw=000000000042&pista=Interlagos&data=15112026');
  await expect(page.getByRole('alert')).toContainText('não é seu');
  await expect(page.getByLabel('Pista', { exact: true })).toBeVisible();
});

test('CSV and GPX downloads parse back', async ({ page }) => {
  await openShared(page);
  await expect(page.getByTestId('top-speed')).toBeVisible();
  const csvDownload = page.waitForEvent('download');
  await page.getByRole('link', { name: 'CSV (RaceRender)' }).click();
  const csv = readFileSync(await (await csvDownload).path(), 'utf8')
    .trim()
    .split('\r\n');
  expect(csv[0]).toBe('Time,Latitude,Longitude,Speed (KPH),Lap,Lean Angle,Satellites,Heat');
  const row = csv[1]!.split(',');
  expect(Number(row[1])).toBeLessThan(-23);
  expect(Number(row[2])).toBeLessThan(-46);
  expect(csv.length).toBeGreaterThan(1000);

  const gpxDownload = page.waitForEvent('download');
  await page.locator('.actions-row').getByRole('link', { name: 'GPX', exact: true }).click();
  const gpx = readFileSync(await (await gpxDownload).path(), 'utf8');
  const points = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'application/xml');
    if (doc.getElementsByTagName('parsererror').length) return -1;
    return doc.getElementsByTagName('trkpt').length;
  }, gpx);
  expect(points).toBe(csv.length - 1);
});

test('the make page draws the demo lap, rotates 0.1° per pixel and zooms within 0.1..5', async ({ page }) => {
  await signIn(page, { email: uniqueEmail('desenho') });
  await page.goto('/make');
  const canvas = page.getByTestId('make-canvas');
  await expect(canvas).toHaveAttribute('width', '800');
  await expect(canvas).toHaveAttribute('height', '600');
  await expect.poll(async () => Number(await canvas.getAttribute('data-points'))).toBeGreaterThan(100);
  await expect.poll(() => paintedPixels(canvas)).toBeGreaterThan(1000);
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + 100, box.y + 100);
  await page.mouse.down();
  await page.mouse.move(box.x + 150, box.y + 100, { steps: 5 });
  await page.mouse.up();
  await expect(canvas).toHaveAttribute('data-rotation', '5.0');
  await page.keyboard.down('Control');
  for (let i = 0; i < 60; i++) await page.mouse.wheel(0, -100);
  await expect(canvas).toHaveAttribute('data-zoom', '5.0');
  for (let i = 0; i < 80; i++) await page.mouse.wheel(0, 100);
  await page.keyboard.up('Control');
  await expect(canvas).toHaveAttribute('data-zoom', '0.1');
});

test('a simulated upload appears on an open laps screen without reload', async ({ page, baseURL }) => {
  const email = uniqueEmail('aovivo');
  await signIn(page, { email });
  const id = `0000000${Math.floor(10000 + Math.random() * 89999)}`;
  const out = execFileSync(process.execPath, ['bin/voltas.mjs', 'device', 'add', id, '--owner', email], {
    env: { ...process.env, DATA_DIR: E2E_DATA_DIR },
  }).toString();
  const token = out.trim().split('\n').at(-1)!;
  await page.goto('/laps');
  await expect(page.getByText('Nenhuma sessão ainda: ligue o hardware e use Send.')).toBeVisible();
  execFileSync(
    process.execPath,
    [
      'bin/voltas.mjs',
      'simulate',
      '--server',
      baseURL!,
      '--device',
      id,
      '--token',
      token,
      '--track',
      'Monza',
      '--date',
      '21112026',
    ],
    { stdio: 'ignore' },
  );
  await expect(page.getByLabel('Pista', { exact: true })).toHaveValue('Monza');
  await expect(page.getByLabel('Data', { exact: true })).toHaveValue('21112026');
  await page.getByRole('button', { name: 'Carregar' }).click();
  await expect(page.locator('.lap-best')).toHaveCount(1);
  // Home shows it as the latest session.
  await page.goto('/user');
  await expect(page.getByTestId('latest-session')).toContainText('Monza');
  // Home links the latest session to analytics (the spec has the action but no button).
  await page.getByTestId('latest-session').getByRole('link', { name: 'Análise' }).click();
  await expect(page).toHaveURL(new RegExp(`/analytics\\?hw=${id}&pista=Monza&data=21112026$`));
  await expect(page.getByTestId('top-speed')).toBeVisible();
});

test('the lap table says it is busy until the rider’s record is in, then offers "Comparar com meu recorde"', async ({
  page,
}) => {
  const release = await holdAnswers(page, '**/api/sessions/records');
  await openShared(page);
  const table = page.getByRole('region', { name: 'Voltas da sessão' });
  // The lap table is drawn as the rider scrolls towards it.
  await expect(async () => {
    await table.scrollIntoViewIfNeeded();
    await expect(page.getByTestId('figures-row').first()).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  const compare = table.getByRole('link', { name: /Comparar com meu recorde/ });
  await expect(table).toHaveAttribute('aria-busy', 'true');
  await expect(compare).toHaveCount(0);
  release();
  await expect(table).toHaveAttribute('aria-busy', 'false');
  await expect(compare.first()).toBeVisible();
});

test('the session below the selection stays put while the selection’s lists arrive', async ({ page }) => {
  const release = await holdAnswers(page, '**/api/devices/*/tracks/*/dates');
  await openShared(page);
  const session = page.getByRole('region', { name: 'Interlagos 15/11/2026' });
  await expect(page.locator('#sel-track')).toBeEnabled(); // the tracks are in (and a demo notice, if any)
  await expect(page.getByText('Buscando suas pistas e datas…')).toBeVisible();
  await expect(page.getByTestId('top-speed')).toBeVisible();
  const before = (await session.boundingBox())!.y;
  release();
  await expect(page.getByText('Esta sessão já está aberta abaixo.')).toBeVisible();
  expect((await session.boundingBox())!.y).toBeCloseTo(before, 0);
});

test('on a phone, nothing on screen moves as the tips and the rider’s record arrive', async ({ page }) => {
  await page.setViewportSize({ width: 412, height: 823 }); // Lighthouse's phone
  // Every layout shift of the page, as the browser reports it (no input here to excuse one).
  await page.addInitScript(() => {
    const w = window as unknown as { shifts: number };
    w.shifts = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.shifts += (e as unknown as { value: number }).value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
  // Both come after the laps have painted, as on a phone on slow 4G.
  const releaseTips = await holdAnswers(page, '**/coaching*');
  const releaseRecord = await holdAnswers(page, '**/api/sessions/records');
  await openShared(page);
  await expect(page.getByTestId('figures-row').first()).toBeVisible({ timeout: 30_000 });
  const frames = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await frames();
  releaseTips();
  releaseRecord();
  await expect(page.getByTestId('coaching-tip').first()).toBeVisible();
  await expect(page.getByRole('link', { name: /Comparar com meu recorde/ }).first()).toBeAttached();
  await frames();
  const tips = (await page.getByTestId('coaching-tips').boundingBox())!;
  const shifts = await page.evaluate(() => (window as unknown as { shifts: number }).shifts);
  expect(shifts, `tips ${Math.round(tips.height)} px tall`).toBeLessThan(0.02);
});

test('a full day’s lap table draws its first rows, and the rest as the rider scrolls in its box', async ({ page }) => {
  await openShared(page);
  const box = page.getByRole('region', { name: 'Voltas da sessão' });
  const rows = page.getByTestId('figures-row');
  await expect(async () => {
    await box.scrollIntoViewIfNeeded();
    await expect(rows.first()).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  // More than the box shows; the rest of the day's laps wait in a busy place of their own.
  await expect(rows).toHaveCount(12);
  await expect(box.locator('tbody[aria-busy="true"]')).toHaveCount(1);
  await box.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(box.locator('tbody[aria-busy="true"]')).toHaveCount(0);
  expect(await rows.count()).toBeGreaterThan(12);
});

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseGpsSix } from '#core/formats/gps-six.ts';
import { writeGpx } from '#core/imports/test-support/writers.ts';
import { generateSession } from '#core/sim/session-generator.ts';
import { goproOnTrace, positionOn } from '#core/test-support/gopro-on-trace.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { expect, type Locator, type Page, signIn, test, uniqueEmail } from './fixtures';

// Issue 37: the rider's own video beside the data, in real Chromium (WebCodecs with H.264 on 127.0.0.1).
const SAMPLE = path.resolve('../shared/data/video/max-heromode.mp4'); // 10.5 s, 848×480, H.264 + GPMF
// A second file for the other lap: one file's sync is the session's (found again by its fingerprint), so two laps of one session marked at one file's start would contradict each other.
const OTHER_SAMPLE = path.resolve('../shared/data/video/karma.mp4');
const SESSION = { hw: '000000000042', pista: 'Interlagos', data: '15112026' };
test.setTimeout(180_000);
// A phone's width: the video on top, the charts below, nothing scrolls sideways.
test.use({ viewport: { width: 360, height: 780 } });

/**
 * A short test video made with Debian's ffmpeg (scripts/e2e.mjs installs it when missing), in the
 * test's own output folder (Playwright empties it at the next run).
 */
function ffmpegVideo(name: string, size: string, codec: string[]): string {
  const out = test.info().outputPath(name);
  const source = ['-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=30:duration=12`];
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...source, ...codec, '-pix_fmt', 'yuv420p', out]);
  return out;
}

const videoTime = (page: Page, testId = 'video-player') =>
  page.getByTestId(testId).evaluate((v: HTMLVideoElement) => v.currentTime);

/**
 * Every control shown in `container` is reached with Tab alone, from its first: buttons, selects,
 * fields, a details' summary, links, the player (a radio group counts once, by its checked radio).
 */
async function expectTabReachesAll(page: Page, container: Locator) {
  const controls = container.locator(
    'button:visible, select:visible, input:not([type=radio]):visible, input[type=radio]:checked:visible, summary:visible, a[href]:visible, video[controls]:visible',
  );
  const n = await controls.evaluateAll((els) => {
    els.forEach((el, i) => el.setAttribute('data-kb', String(i)));
    return els.length;
  });
  expect(n).toBeGreaterThan(2);
  const reached = new Set<string>();
  await controls.first().focus();
  // The player's own buttons take Tabs too (its shadow controls keep the focus on the element).
  for (let i = 0; i < n * 8 + 20 && reached.size < n; i++) {
    const at = await page.evaluate(() => document.activeElement?.getAttribute('data-kb') ?? null);
    if (at !== null) reached.add(at);
    await page.keyboard.press('Tab');
  }
  const missed = await controls.evaluateAll(
    (els, seen) =>
      els.filter((el) => !seen.includes(el.getAttribute('data-kb')!)).map((el) => el.outerHTML.slice(0, 80)),
    [...reached],
  );
  expect(missed).toEqual([]);
}

async function openWithVideo(page: Page, file = SAMPLE) {
  await signIn(page, { email: 'piloto@voltas.local' });
  await page.goto(`/analytics?${new URLSearchParams(SESSION).toString()}`);
  // Drawn when scrolled to (below the map on a phone).
  await page.getByTestId('chart-speed').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('chart-speed')).toHaveAttribute('data-ready', 'true');
  const panel = page.getByTestId('video-panel');
  await expect(panel).toBeVisible();
  // Picked from the keyboard: the button opens the file chooser.
  const chooser = page.waitForEvent('filechooser');
  await panel.getByRole('button', { name: 'Escolher vídeo' }).focus();
  await page.keyboard.press('Enter');
  await (await chooser).setFiles(file);
  const player = page.getByTestId('video-player');
  // Read first (a worker on a shared two-core machine): seconds at times.
  await expect(player).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
  expect(await player.evaluate((v: HTMLVideoElement) => v.src)).toMatch(/^blob:/);
  return { panel, player };
}

/**
 * Synced by hand (the sample was not filmed at a track, and the sync helper's automatic sync
 * lands separately): at the video's first frame, "crossing the line now" at the start of the
 * lap the charts measure against (the best lap, the crossing offered first).
 */
async function syncByHand(page: Page) {
  const panel = page.getByTestId('video-panel');
  const player = page.getByTestId('video-player');
  await player.evaluate((v: HTMLVideoElement) => (v.currentTime = 0));
  // Closed when the video came synced already (its own GPS or clock): opened to mark by hand.
  const manual = panel.locator('details.video-manual');
  if (!(await manual.evaluate((d: HTMLDetailsElement) => d.open))) await manual.locator('summary').click();
  const mark = panel.getByRole('button', { name: 'Marcar: cruzando a linha agora' });
  await mark.focus();
  await page.keyboard.press('Enter');
  await expect(panel.getByTestId('video-sync')).toHaveText(/Sincronizado à mão \(±100 ms\)/);
  await expect(panel.getByTestId('video-sync-status')).toContainText('O vídeo cobre só parte da sessão');
}

/**
 * The video's sample when the map's cursor stands on it too, else -1: the player marks its sample
 * at once, the map on its next render, so a test reads both until they agree.
 */
function sampleWhereMapAgrees(page: Page): Promise<number> {
  return page.evaluate(() => {
    const sample = document.querySelector('[data-testid=video-player]')?.getAttribute('data-sample');
    const cursor = document.querySelector('[data-testid=track-map]')?.getAttribute('data-cursor');
    return sample && sample === cursor ? Number(sample) : -1;
  });
}

test('a video picked on the analysis: synced by hand, played with the cursor, seeked from a chart and a corner', async ({
  page,
}) => {
  const uploads: string[] = [];
  page.on('request', (r) => {
    if (r.method() !== 'GET' && (r.postDataBuffer()?.length ?? 0) > 100_000) uploads.push(r.url());
  });
  const { panel, player } = await openWithVideo(page);
  await syncByHand(page);

  // Playing moves the map's and the charts' cursor.
  const map = page.getByTestId('track-map');
  await player.evaluate((v: HTMLVideoElement) => {
    v.muted = true;
    return v.play();
  });
  await expect.poll(() => videoTime(page)).toBeGreaterThan(1.5);
  await player.evaluate((v: HTMLVideoElement) => v.pause());
  await expect.poll(() => sampleWhereMapAgrees(page)).toBeGreaterThan(0);
  await expect
    .poll(() =>
      page
        .getByTestId('chart-speed')
        .locator('.u-cursor-x')
        .evaluate((el) => getComputedStyle(el).transform),
    )
    .not.toBe('none');

  // The next two seeks each start from 9.5 s, well past where they go (near the lap's start): where
  // the playing above stopped can be that place already.
  const fromLate = async () => {
    await player.evaluate((v: HTMLVideoElement) => {
      v.currentTime = 9.5;
    });
    await expect.poll(() => videoTime(page)).toBeCloseTo(9.5, 1);
  };
  // A click on the speed chart near the lap's start seeks the video there.
  const over = page.getByTestId('chart-speed').locator('.u-over');
  const box = (await over.boundingBox())!;
  await fromLate();
  await over.click({ position: { x: box.width * 0.04, y: box.height / 2 } });
  await expect.poll(() => videoTime(page)).toBeLessThan(8);
  const seeked = await videoTime(page);
  expect(seeked).toBeGreaterThan(0);
  expect(seeked).toBeLessThan(10.6);
  await expect.poll(() => sampleWhereMapAgrees(page)).toBeGreaterThan(0);

  // A corner the video shows: the first one (its apex within the first seconds of the lap).
  await fromLate();
  const jump = panel.getByTestId('video-jump-corner');
  await jump.selectOption('T1');
  await expect.poll(() => videoTime(page)).toBeLessThan(8);
  const atCorner = await videoTime(page);
  expect(atCorner).toBeGreaterThan(0.5);
  expect(atCorner).toBeLessThan(10.6);
  // A lap the video does not show is said plainly.
  const laps = await panel.getByTestId('video-jump-lap').locator('option').allTextContents();
  await panel.getByTestId('video-jump-lap').selectOption(laps.at(-1)!);
  await expect(panel.getByText(/Esse momento não está no vídeo/)).toBeVisible();

  // Every control of the panel, the export's too, is reached from the keyboard.
  await panel.locator('details.video-export > summary').click();
  await expectTabReachesAll(page, panel);

  // Nothing of the file was sent.
  expect(uploads).toEqual([]);
  // The phone's width holds: no sideways scroll with the video on top.
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  const [videoBox, mapBox] = [await player.boundingBox(), await map.boundingBox()];
  expect(videoBox!.y).toBeLessThan(mapBox!.y);
});

test('a 3 s clip exported with the data drawn on it decodes back with its overlay', async ({ page }) => {
  const { panel } = await openWithVideo(page);
  await syncByHand(page);
  await panel.getByText('Exportar clipe com os dados').click();
  await panel.getByTestId('clip-from').fill('0');
  // Short: encoding is the browser's slowest work here, and a longer clip tests nothing more.
  await panel.getByTestId('clip-to').fill('3');
  await panel.getByRole('radio', { name: '720p' }).check();
  // Started, then cancelled: said, and nothing to download.
  await panel.getByRole('button', { name: 'Exportar MP4' }).click();
  await panel.getByRole('button', { name: 'Cancelar' }).click();
  await expect(panel.getByText('Exportação cancelada.')).toBeVisible();
  await expect(panel.getByTestId('clip-download')).toHaveCount(0);
  await panel.getByRole('button', { name: 'Exportar MP4' }).click();
  await expect(panel.getByRole('progressbar')).toBeVisible();
  const done = panel.getByTestId('clip-done');
  await expect(done).toBeVisible({ timeout: 150_000 });
  const url = (await panel.getByTestId('clip-download').getAttribute('href'))!;
  if (process.env.CLIP_OUT) {
    const dl = page.waitForEvent('download');
    await panel.getByTestId('clip-download').click();
    await (await dl).saveAs(process.env.CLIP_OUT);
  }

  // Decoded back in the page: its length, and a frame carrying the overlay's purple strip.
  const read = await page.evaluate(async (src) => {
    const v = document.createElement('video');
    v.muted = true;
    v.src = src;
    await new Promise((r, j) => {
      v.onloadeddata = r;
      v.onerror = () => j(new Error(`clip does not decode: ${v.error?.code} ${v.error?.message}`));
    });
    v.currentTime = 1.5;
    await new Promise((r) => (v.onseeked = r));
    const canvas = document.createElement('canvas');
    [canvas.width, canvas.height] = [v.videoWidth, v.videoHeight];
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(v, 0, 0);
    // overlayPanel(720): x 16, y 544, width 440, the strip 10 px tall.
    const strip = ctx.getImageData(40, 546, 320, 6).data;
    let r = 0;
    let g = 0;
    let b = 0;
    for (let i = 0; i < strip.length; i += 4) [r, g, b] = [r + strip[i]!, g + strip[i + 1]!, b + strip[i + 2]!];
    const n = strip.length / 4;
    // The small map, top right: its dark box and white outline.
    const map = ctx.getImageData(v.videoWidth - 196, 16, 180, 180).data;
    let white = 0;
    for (let i = 0; i < map.length; i += 4) if (map[i]! > 200 && map[i + 1]! > 200 && map[i + 2]! > 200) white++;
    return { duration: v.duration, width: v.videoWidth, height: v.videoHeight, strip: [r / n, g / n, b / n], white };
  }, url);
  expect(read.height).toBe(720);
  expect(read.width).toBe(1272); // 848×480 scaled to 720 lines, even
  expect(read.duration).toBeGreaterThan(2.8);
  expect(read.duration).toBeLessThan(3.2);
  const [r, g, b] = read.strip;
  expect(Math.abs(r! - 0xb3)).toBeLessThan(30);
  expect(Math.abs(g! - 0x88)).toBeLessThan(30);
  expect(Math.abs(b! - 0xff)).toBeLessThan(30);
  expect(read.white).toBeGreaterThan(50);
});

test('an HEVC (H.265) recording: said in Portuguese, with the camera setting to change, not a black player', async ({
  page,
}) => {
  // Encoded here by libx265 and tagged hvc1, as GoPro writes H.265 (Chromium here has no HEVC decoder).
  const hevc = ffmpegVideo('GX010001.MP4', '320x240', [
    '-c:v',
    'libx265',
    '-x265-params',
    'log-level=error',
    '-tag:v',
    'hvc1',
  ]);
  await signIn(page, { email: 'piloto@voltas.local' });
  await page.goto(`/analytics?${new URLSearchParams(SESSION).toString()}`);
  const panel = page.getByTestId('video-panel');
  await expect(panel).toBeVisible();
  await panel.getByTestId('video-file').setInputFiles(hevc);
  const alert = panel.getByRole('alert');
  await expect(alert).toHaveText(/Este vídeo está em HEVC \(H\.265\), que este navegador não toca/);
  await expect(alert).toContainText('Codec de vídeo: H.264');
  // Said once: not the player's generic "cannot play" as well.
  await expect(panel.getByTestId('video-player')).toBeVisible();
  await expect(alert).toHaveCount(1);
});

test('a clip the browser has no H.264 encoder for: said in Portuguese, nothing to download', async ({ page }) => {
  // A 32:1 strip (4096×128, H.264, which plays): at 720 lines the clip would be 23040×720, a size
  // Chromium's VideoEncoder.isConfigSupported really refuses (no override of the browser's globals).
  const strip = ffmpegVideo('faixa.mp4', '4096x128', ['-c:v', 'libx264']);
  const { panel } = await openWithVideo(page, strip);
  await syncByHand(page);
  await panel.getByText('Exportar clipe com os dados').click();
  await panel.getByTestId('clip-from').fill('0');
  await panel.getByTestId('clip-to').fill('10');
  await panel.getByRole('radio', { name: '720p' }).check();
  await panel.getByRole('button', { name: 'Exportar MP4' }).click();
  await expect(panel.locator('.video-export').getByRole('alert')).toHaveText(
    'Este navegador não tem como gravar um vídeo de 23040×720 em H.264 (WebCodecs), então o clipe não pode ser feito aqui. Use o Chrome ou o Edge atualizados num computador.',
  );
  await expect(panel.getByRole('progressbar')).toHaveCount(0);
  await expect(panel.getByTestId('clip-download')).toHaveCount(0);
});

test('two laps side by side on the compare page, kept together by position, with the gap', async ({ page }) => {
  await signIn(page, { email: 'piloto@voltas.local' });
  const laps = (await (
    await page.request.get(`/api/devices/${SESSION.hw}/sessions/${SESSION.pista}/${SESSION.data}/track-analysis`)
  ).json()) as {
    laps: { heat: string; number: number; kind: string; complete: boolean; seconds: number | null }[];
  };
  const flying = laps.laps.filter((l) => l.kind === 'flying' && l.complete).map((l) => `${l.heat}${l.number}`);
  const [lap, reference] = flying;
  await page.goto(
    `/comparar?${new URLSearchParams({ ...SESSION, volta: lap!, ref: 'volta', rhw: SESSION.hw, rpista: SESSION.pista, rdata: SESSION.data, rvolta: reference! }).toString()}`,
  );
  const videos = page.getByTestId('lap-videos');
  await expect(videos).toBeVisible();
  for (const k of [0, 1]) {
    await page.getByTestId(`lap-video-${k}-file`).setInputFiles(k === 0 ? SAMPLE : OTHER_SAMPLE);
    const side = page.getByTestId(`lap-video-${k}`);
    await expect(side.getByTestId(`lap-video-${k}-player`)).toBeVisible({ timeout: 30_000 });
    if (k === 1) {
      // karma.mp4 has no GPS5 but a creation time of 2017: "synced" by the camera's clock to
      // another day, where the lap is not. Said, and the video left at its start rather than
      // sent past its end, where the rider's mark would be taken (the follower then had nowhere to go).
      await expect(side.getByTestId('lap-video-1-off')).toHaveText(/O início desta volta não está neste vídeo/);
      expect(await videoTime(page, 'lap-video-1-player')).toBe(0);
    }
    await side.getByRole('button', { name: 'Marcar: início desta volta agora' }).click();
    await expect(side.getByTestId(`lap-video-${k}-synced`)).toHaveText(/Sincronizado à mão/);
  }
  await expect(videos.getByTestId('lap-video-0-player')).toBeVisible();
  await page.getByTestId('play-both').click();
  await expect.poll(() => videoTime(page, 'lap-video-0-player')).toBeGreaterThan(2);
  await expect.poll(() => videoTime(page, 'lap-video-1-player')).toBeGreaterThan(1.5);
  await page.getByTestId('play-both').click();
  await expect(page.getByTestId('lap-videos-gap')).toHaveText(/^Diferença [+−]\d+,\d{3} s$/);
  await expect(page.getByTestId('lap-videos-position')).toHaveText(/^Posição: \d+ m$/);
  // Paused, the follower stands where the leader is on the track: the same share of their laps.
  const [t0, t1] = [await videoTime(page, 'lap-video-0-player'), await videoTime(page, 'lap-video-1-player')];
  expect(Math.abs(t0 - t1)).toBeLessThan(1.5);
  await expectTabReachesAll(page, videos);
  // Both fit side by side on a phone.
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  const [a, b] = [
    await page.getByTestId('lap-video-0').boundingBox(),
    await page.getByTestId('lap-video-1').boundingBox(),
  ];
  expect(Math.abs(a!.y - b!.y)).toBeLessThan(2);
});

// Issue 59: automatic sync by the camera's own GPS, in the browser. A session at Interlagos on the
// evening the MAX sample was filmed (its GPS time, 23:45:14–23:45:25 UTC, falls on the first flying
// lap), and the sample with its GPS5 fixes rewritten onto that lap: the file's layout, video and GPS
// times kept, so the camera's clock says when and its positions say where.
const LAP_DAY = { y: 2019, m: 11, d: 18 };
const lapSession = generateSession(
  loadTracks().find((t) => t.name === 'Interlagos')!,
  {
    seed: 40,
    heats: 1,
    lapsPerHeat: [3, 3],
    startTimeMs: 85_200_000, // 23:40 UTC
  },
);
const lapColumns = parseGpsSix(lapSession.gpsSix).value;
/** The session as a logger writes it, its clock `aheadMs` ahead of UTC. */
const lapGpx = (aheadMs: number) =>
  writeGpx({ ...lapColumns, timeMs: lapColumns.timeMs.map((t) => t + aheadMs) }, LAP_DAY);
let onLap: { file: string; cameraOffsetMs: number };

test.beforeAll(async () => {
  const { bytes, cameraOffsetMs } = await goproOnTrace(
    new Uint8Array(readFileSync(SAMPLE)),
    positionOn(lapColumns, Date.UTC(LAP_DAY.y, LAP_DAY.m - 1, LAP_DAY.d)),
  );
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'voltas-gopro-')), 'GX010042.MP4');
  writeFileSync(file, bytes);
  onLap = { file, cameraOffsetMs };
});
test.afterAll(() => rmSync(path.dirname(onLap.file), { recursive: true, force: true }));

/** A new rider imports the session (its clock `aheadMs` off) on 'Importar sessões'; returns its address. */
async function importLapSession(page: Page, aheadMs: number) {
  await signIn(page, { email: uniqueEmail('gopro') });
  await page.goto('/importar');
  await page.getByTestId('import-input').setInputFiles({
    name: 'interlagos.gpx',
    mimeType: 'application/gpx+xml',
    buffer: Buffer.from(lapGpx(aheadMs)),
  });
  const item = page.getByTestId('import-item');
  await expect(item).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  const href = (await item.getByRole('link', { name: 'Análise' }).getAttribute('href'))!;
  const params = new URL(href, 'http://x').searchParams;
  return { hw: params.get('hw')!, pista: params.get('pista')!, data: params.get('data')! };
}

/** The sync kept for the rider's file (the page keeps every automatic sync). */
async function keptOffsetMs(page: Page, s: { hw: string; pista: string; data: string }): Promise<number> {
  const url = `/api/devices/${s.hw}/sessions/${s.pista}/${s.data}/videos`;
  let kept: { offsetMs: number; method: string }[] = [];
  await expect.poll(async () => (kept = (await (await page.request.get(url)).json()) as typeof kept).length).toBe(1);
  expect(kept[0]!.method).toBe('gpmf');
  return kept[0]!.offsetMs;
}

/** "Sincronizado pelo GPS da câmera (±N ms)": N, once said. */
async function gpsSyncErrorMs(synced: Locator): Promise<number> {
  await expect(synced).toHaveText(/Sincronizado pelo GPS da câmera \(±\d+ ms\)/, { timeout: 30_000 });
  return Number(/±(\d+)/.exec((await synced.textContent())!)![1]);
}

for (const aheadMs of [0, 3_700]) {
  test(`a GoPro file on a lap of an imported session is synced by its own GPS, no marks (logger ${aheadMs / 1000} s ahead)`, async ({
    page,
  }) => {
    const session = await importLapSession(page, aheadMs);
    await page.goto(`/analytics?${new URLSearchParams(session).toString()}`);
    const panel = page.getByTestId('video-panel');
    await expect(panel).toBeVisible({ timeout: 30_000 });
    await panel.getByTestId('video-file').setInputFiles(onLap.file);
    await expect(page.getByTestId('video-player')).toBeVisible({ timeout: 30_000 });
    const synced = panel.getByTestId('video-sync');
    await expect(synced).toHaveAttribute('data-method', 'gpmf');
    expect(await gpsSyncErrorMs(synced)).toBeLessThan(100);
    // Where the session's clock puts the video's first frame: the camera's GPS clock plus the logger's error.
    const offsetMs = await keptOffsetMs(page, session);
    expect(Math.abs(offsetMs - (onLap.cameraOffsetMs + aheadMs))).toBeLessThan(100);
  });
}

test.describe('picked before the trace has loaded', () => {
  // A browser without service workers (as a private window in some browsers): the app's worker
  // would otherwise fetch the GPS file past the route that holds it (Playwright's own blocking
  // leaves workbox-window a registration of undefined, an uncaught error 10 s in).
  test.beforeEach(async ({ context }) => {
    await context.addInitScript(() => {
      delete (Navigator.prototype as { serviceWorker?: unknown }).serviceWorker;
    });
  });

  test('a GoPro file picked on the compare page while the GPS file downloads is synced once it arrives', async ({
    page,
  }) => {
    const session = await importLapSession(page, 0);
    const analysis = (await (
      await page.request.get(`/api/devices/${session.hw}/sessions/${session.pista}/${session.data}/track-analysis`)
    ).json()) as { laps: { heat: string; number: number; kind: string; complete: boolean }[] };
    const [lap, reference] = analysis.laps
      .filter((l) => l.kind === 'flying' && l.complete)
      .map((l) => `${l.heat}${l.number}`);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.context().route('**/gps.bin', async (route) => {
      await held;
      await route.continue();
    });
    const { hw, pista, data } = session;
    await page.goto(
      `/comparar?${new URLSearchParams({ hw, pista, data, volta: lap!, ref: 'volta', rhw: hw, rpista: pista, rdata: data, rvolta: reference! }).toString()}`,
    );
    await page.getByTestId('lap-video-0-file').setInputFiles(onLap.file);
    const side = page.getByTestId('lap-video-0');
    // Read, played, and not yet synced: the session's positions are still on their way.
    await expect(side.getByTestId('lap-video-0-player')).toBeVisible({ timeout: 30_000 });
    await expect(side.getByTestId('lap-video-0-synced')).toHaveCount(0);
    release();
    expect(await gpsSyncErrorMs(side.getByTestId('lap-video-0-synced'))).toBeLessThan(100);
    const offsetMs = await keptOffsetMs(page, session);
    expect(Math.abs(offsetMs - onLap.cameraOffsetMs)).toBeLessThan(100);
  });
});

import { expect, type Page, scrollToSection, serviceWorkerReady, signIn, test } from './fixtures';

// Issue 25: at the track with no signal. The app is installable; a session the rider opened stays
// readable offline (laps, analysis and corners) with a banner saying the data is a kept copy and
// from when; sign-in says it needs the network; after logout nothing of the rider's is readable.
test.use({ viewport: { width: 360, height: 780 } });
test.setTimeout(90_000);

const SESSION = '/laps?hw=000000000042&pista=Interlagos&data=15112026';
const ANALYTICS = '/analytics?hw=000000000042&pista=Interlagos&data=15112026';

test('installable: a manifest with icons, and a service worker once the page has settled', async ({
  page,
  request,
}) => {
  await page.clock.install();
  await page.goto('/login');
  await page.waitForLoadState('load');
  // Its install downloads the whole app: not while the page the rider opened still loads.
  await page.clock.runFor(2_000);
  expect(await page.evaluate(async () => Boolean(await navigator.serviceWorker.getRegistration()))).toBe(false);
  const href = await page.locator('link[rel=manifest]').getAttribute('href');
  const manifest = (await (await request.get(href!)).json()) as {
    name: string;
    display: string;
    icons: { sizes: string }[];
  };
  expect(manifest).toMatchObject({ name: 'Voltas', display: 'standalone' });
  expect(manifest.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
  await serviceWorkerReady(page);
});

/** Signed in as the demo rider, on a page the service worker controls. */
async function riderUnderServiceWorker(page: Page) {
  await page.clock.install();
  await signIn(page, { email: 'piloto@voltas.local' });
  await serviceWorkerReady(page);
  // The page that registered the worker is not yet its client; from the next load on it is.
  await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
}

test('a session opened stays readable offline, with the banner; after logout nothing is', async ({ page, context }) => {
  await riderUnderServiceWorker(page);
  await page.goto(SESSION);
  await expect(page.getByTestId('lap-row').first()).toBeVisible();
  await expect(page.getByTestId('ideal-lap')).toHaveText(/\d\d:\d\d\.\d{3}/);
  await page.goto(ANALYTICS);
  await expect(page.getByTestId('chart-speed')).toBeVisible();
  await scrollToSection(page, 'Onde você perde tempo');
  await expect(page.getByTestId('corner-table')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('offline-banner')).toHaveCount(0);

  await context.setOffline(true);
  await page.goto(SESSION);
  await expect(page.getByTestId('lap-row').first()).toBeVisible();
  await expect(page.getByTestId('offline-banner')).toContainText(
    /Sem conexão: estes dados foram salvos em \d\d\/\d\d\/\d{4} às \d\d:\d\d/,
  );
  await page.goto(ANALYTICS);
  await expect(page.getByTestId('chart-speed')).toBeVisible();
  await scrollToSection(page, 'Onde você perde tempo');
  await expect(page.getByTestId('corner-table')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('offline-banner')).toBeVisible();

  // Back online: the banner goes with the first fresh answer; then the rider signs out.
  await context.setOffline(false);
  await page.goto('/user');
  await expect(page.getByTestId('offline-banner')).toHaveCount(0);
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(async () => (await (await caches.open('voltas-data')).keys()).length)).toBe(0);
  await context.setOffline(true);
  await page.goto(SESSION);
  await page.waitForTimeout(1500);
  await expect(page.getByTestId('lap-row')).toHaveCount(0);
  // Signing in needs the network, and says so.
  await page.goto('/login');
  await expect(page.getByText('Sem conexão: para entrar é preciso internet.')).toBeVisible();
  await context.setOffline(false);
});

test('a session opened again is asked for with its kept copy’s ETag, and an unchanged one comes back as a 304', async ({
  page,
  context,
}) => {
  await riderUnderServiceWorker(page);
  await page.goto(SESSION);
  await expect(page.getByTestId('lap-row').first()).toBeVisible();
  // Signed-in answers are `no-store`: the browser's HTTP cache keeps none, so only the worker's
  // own copy can spare the rider the bytes again.
  const lapsStatuses: number[] = [];
  context.on('response', (res) => {
    if (res.request().serviceWorker() && /\/api\/devices\/.*\/laps$/.test(new URL(res.url()).pathname))
      lapsStatuses.push(res.status());
  });
  await page.reload();
  await expect(page.getByTestId('lap-row').first()).toBeVisible();
  await expect.poll(() => lapsStatuses).toContain(304);
  await expect(page.getByTestId('offline-banner')).toHaveCount(0);
});

test('a new version of the app is offered, not forced, and taken when the rider says so', async ({ page }) => {
  await signIn(page, { email: 'piloto@voltas.local' });
  // The version the rider has is the worker under another address (to the browser, another
  // version), registered from a page that is not the app so the app cannot register first.
  await page.goto('/icons/icon-192.png');
  await page.evaluate(async () => {
    await navigator.serviceWorker.register('/sw.js?versao=1');
    await navigator.serviceWorker.ready;
  });
  const running = () => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? '');

  // The app opens under that version and finds the published one, /sw.js.
  await page.goto(SESSION);
  await expect(page.getByTestId('lap-row').first()).toBeVisible();
  const offer = page.locator('.update-banner');
  await expect(offer).toContainText('Há uma nova versão do Voltas.', { timeout: 15_000 });
  // Offered, not forced: the page goes on with the version it has.
  await page.waitForTimeout(1000);
  expect(await running()).toContain('/sw.js?versao=1');
  await expect(page.getByTestId('lap-row').first()).toBeVisible();

  // Taken on the rider's word: the new version controls the page, which loads again with it, and
  // it is not offered again.
  const reloaded = page.waitForEvent('load');
  await offer.getByRole('button', { name: 'Atualizar agora' }).click();
  await reloaded;
  await expect.poll(running).toMatch(/\/sw\.js$/);
  await expect(page.getByTestId('lap-row').first()).toBeVisible();
  await page.waitForTimeout(1500);
  await expect(page.locator('.update-banner')).toHaveCount(0);
});

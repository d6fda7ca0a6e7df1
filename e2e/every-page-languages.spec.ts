import { parseGpsSix } from '#core/formats/gps-six.ts';
import { writeGpx } from '#core/imports/test-support/writers.ts';
import { generateSession } from '#core/sim/session-generator.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { expect, headerOnOneRow, type Page, scrollToSection, signIn, test } from './fixtures';
import { FOREIGN, speaksOnly, withoutNames, wrongDecimals } from './languages';

// Issue 38: every page of every role, opened by a browser that speaks English or Spanish, in that
// language only (proper names and "Login with Google" apart), and no wider than a 360 px phone.
// Issue 60: with the language's decimal separator only (pt-BR's: accessibility.spec.ts).
test.use({ viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true });
test.setTimeout(120_000);

const SESSION = 'hw=000000000042&pista=Interlagos&data=15112026';
const OUT_LAP = { en: 'out lap', es: 'vuelta de salida' };
const WHERE_TITLE = { en: 'Where you lose time', es: 'Dónde pierdes tiempo' };
const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;
const gpx = writeGpx(
  parseGpsSix(generateSession(interlagos, { seed: 38, heats: 1, lapsPerHeat: [3, 3], gpsNoise: 0.2 }).gpsSix).value,
  { y: 2026, m: 3, d: 8 },
);

/** Opens a page, waits for what shows it has arrived (its heading by default) and its data, then checks its words. */
async function check(page: Page, language: 'en' | 'es', path: string, ready?: () => Promise<void>) {
  await page.goto(path);
  await (ready ? ready() : expect(page.locator('h1')).toBeVisible());
  // Its data too: nothing still loading.
  await expect(page.locator('.spinner')).toHaveCount(0);
  await speaksOnly(page, language, FOREIGN[language]);
  // Its numbers too: one decimal separator, the language's (issue 60).
  expect.soft(wrongDecimals(await page.locator('body').innerText(), language), `${path}: decimals`).toEqual([]);
  // The words of a language are longer or shorter: a title still leaves the Menu beside it.
  expect.soft(await headerOnOneRow(page), `${path}: the Menu beside the title`).toBe(true);
}

/** The menu's entries too: open it, read it, close it. */
async function checkMenu(page: Page, language: 'en' | 'es') {
  const toggle = page.locator('button[aria-expanded]').first();
  await toggle.click();
  await expect(page.locator('nav.menu-list')).toBeVisible();
  await speaksOnly(page, language, FOREIGN[language]);
  await toggle.click();
}

for (const [locale, language] of [
  ['en-US', 'en'],
  ['es-ES', 'es'],
] as const) {
  test.describe(`in ${locale}`, () => {
    test.use({ locale });

    test(`every rider page, and a share link signed out, in ${language} only`, async ({ page, browser }) => {
      await check(page, language, '/login', () =>
        expect(page.getByRole('button', { name: 'Login with Google' })).toBeVisible(),
      );
      await signIn(page, { email: 'piloto@voltas.local' });
      await check(page, language, '/user');
      await checkMenu(page, language);
      for (const path of ['/enroll', '/sessoes', '/progresso?pista=Interlagos', '/links', '/make'])
        await check(page, language, path);

      // Imports: a file that is not a recording (the server's refusal), and a GPX (what was found in
      // it); the session is deleted again, its confirmation read too.
      await check(page, language, '/importar');
      await page.locator('input[type=file]').setInputFiles([
        { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a recording') },
        { name: 'day.gpx', mimeType: 'application/gpx+xml', buffer: Buffer.from(gpx) },
      ]);
      await expect(page.locator('[data-testid=import-item][data-status=failed]')).toBeVisible();
      await expect(page.locator('.import-best')).toBeVisible();
      await speaksOnly(page, language, FOREIGN[language]);
      page.once('dialog', (dialog) => {
        expect.soft(withoutNames(dialog.message())).not.toMatch(FOREIGN[language]);
        void dialog.accept();
      });
      await page.locator('.import-links button').click();
      await expect(page.locator('[data-testid=import-item][data-status=deleted]')).toBeVisible();
      await speaksOnly(page, language, FOREIGN[language]);
      await check(page, language, `/laps?${SESSION}`, () => expect(page.getByTestId('lap-row').first()).toBeVisible());
      // The laps a rider does not count, as riders call them.
      await expect(page.getByTestId('lap-row').first().locator('.badge')).toHaveText(OUT_LAP[language]);
      await check(page, language, `/analytics?${SESSION}`, async () => {
        await expect(page.getByTestId('chart-speed')).toBeVisible();
        await scrollToSection(page, WHERE_TITLE[language]);
        await expect(page.getByTestId('loss-card').first()).toBeVisible();
      });
      await check(page, language, `/comparar?${SESSION}&volta=A2&ref=recorde`, () =>
        expect(page.getByTestId('comparison')).toBeVisible(),
      );
      await check(page, language, '/nada-aqui');

      const share = await page.request.post('/api/shares', {
        data: { device: '000000000042', track: 'Interlagos', date: '15112026' },
      });
      expect(share.status()).toBe(201);
      const sharePath = new URL(((await share.json()) as { url: string }).url).pathname;
      await check(page, language, '/links', () => expect(page.getByTestId('share-item').first()).toBeVisible());

      // What the server writes in the link's page, read before any script runs (a messaging app's preview).
      const html = await (await page.request.get(sharePath, { headers: { 'accept-language': locale } })).text();
      expect(html).toContain(`<html lang="${language}">`);
      const head = [
        ...html.matchAll(
          /<(?:title>([^<]*)|meta (?:name|property)="(?:description|og:title|og:description)" content="([^"]*)")/g,
        ),
      ].map((m) => m[1] ?? m[2] ?? '');
      expect(head.filter((line) => FOREIGN[language].test(withoutNames(line)))).toEqual([]);

      const stranger = await browser.newContext({ locale, viewport: { width: 360, height: 780 } });
      const signedOut = await stranger.newPage();
      await check(signedOut, language, sharePath, () => expect(signedOut.getByTestId('shared-view')).toBeVisible());
      await stranger.close();
    });

    test(`every admin page in ${language} only`, async ({ page }) => {
      await signIn(page, { email: 'admin@voltas.local' });
      // A device for the demo seller: a row on the hardware page, an entry in the audit, stock on the seller's page.
      const device = `0000${Math.floor(1e7 + Math.random() * 9e7)}`;
      const registered = await page.request.post('/api/admin/devices', {
        data: { id: device, seller: 'vendedor@voltas.local' },
      });
      expect(registered.status()).toBe(200);
      for (const path of ['/adm', '/seller-adm', '/hardware', '/firmware', '/pistas', '/auditoria'])
        await check(page, language, path);
      await checkMenu(page, language);
    });

    test(`the seller's page in ${language} only`, async ({ page }) => {
      await signIn(page, { email: 'vendedor@voltas.local' });
      await check(page, language, '/seller');
      await checkMenu(page, language);
    });
  });
}

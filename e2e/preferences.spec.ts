import { expect, heavyGet, signIn, test, uniqueEmail } from './fixtures';

// Issue 38: the rider's units, chosen in the menu, kept in their profile: every speed and
// distance follows them, after a reload too; stored data stays metric.
const DEMO = '/analytics?hw=000000000001&pista=Interlagos&data=08112026';

test('units switched to mph, ft in the menu: analytics and laps show them, and after a reload', async ({ page }) => {
  await signIn(page, { email: uniqueEmail('unidades') });
  await page.setViewportSize({ width: 360, height: 780 });
  await page.goto(DEMO);
  await expect(page.getByTestId('top-speed')).toHaveText(/^\d+,\d km\/h$/, { timeout: 20_000 });
  const server = await (await heavyGet(page, '/api/devices/000000000001/sessions/Interlagos/08112026/analysis')).json();
  const mph = `${(server.topSpeedKmh / 1.609344).toFixed(1).replace('.', ',')} mph`;

  // By keyboard: the Menu, then the units' select.
  await page.getByRole('button', { name: 'Menu' }).click();
  const units = page.getByRole('combobox', { name: 'Unidades' });
  await expect(page.getByRole('combobox', { name: 'Idioma' })).toHaveValue('pt-BR');
  await expect(page.getByRole('combobox', { name: 'Idioma' }).locator('option')).toHaveText([
    'Português (Brasil)',
    'English',
    'Español',
  ]);
  await units.focus();
  await units.selectOption('imperial');
  await expect(page.getByTestId('top-speed')).toHaveText(mph);
  // The session's CSV export speaks mph too (RaceRender's MPH column).
  const csv = await heavyGet(
    page,
    (await page.getByRole('link', { name: 'CSV (RaceRender)' }).getAttribute('href')) ?? '',
  );
  expect((await csv.text()).split('\r\n')[0]).toContain('Speed (MPH)');
  await expect(page.getByText('Preferências salvas.')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.getByTestId('chart-speed').scrollIntoViewIfNeeded(); // drawn when scrolled to
  await expect(page.getByTestId('chart-speed')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('.u-label', { hasText: 'Distância (ft)' }).first()).toBeVisible();

  // Kept in the profile: a reload (and the laps page) follow it.
  await page.reload();
  await expect(page.getByTestId('top-speed')).toHaveText(mph, { timeout: 20_000 });
  const prefs = await (await page.request.get('/api/me/preferences')).json();
  expect(prefs).toEqual({ language: 'pt-BR', units: 'imperial', chosen: true });
  await page.goto('/laps?hw=000000000001&pista=Interlagos&data=08112026');
  await expect(page.locator('.sector-dist').first()).toHaveText(/^[\d.]+ ft$/, { timeout: 20_000 });

  // Back to km/h, m.
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('combobox', { name: 'Unidades' }).selectOption('metric');
  await expect(page.locator('.sector-dist').first()).toHaveText(/^[\d.]+ m$/);
});

test.describe('a rider in the US who chose nothing', () => {
  test.use({ locale: 'en-US' });
  test('sees mph from the browser’s languages', async ({ page }) => {
    await signIn(page, { email: uniqueEmail('usa') });
    await page.goto(DEMO);
    await expect(page.getByTestId('top-speed')).toHaveText(/ mph$/, { timeout: 20_000 });
    expect((await (await page.request.get('/api/me/preferences')).json()).chosen).toBe(false);
  });
});

test('a language chosen in the menu follows the rider to another device', async ({ page, browser }) => {
  const email = uniqueEmail('idioma');
  await signIn(page, { email });
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('combobox', { name: 'Idioma' }).selectOption('en');
  // Saved, then the page opens again in English.
  await expect(page.locator('html')).toHaveAttribute('lang', 'en', { timeout: 20_000 });
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(page.getByRole('combobox', { name: 'Language' })).toHaveValue('en');

  // Another device whose browser says Portuguese: English once the profile is read.
  const other = await browser.newContext({ locale: 'pt-BR' });
  const second = await other.newPage();
  await signIn(second, { email });
  await expect(second.locator('html')).toHaveAttribute('lang', 'en', { timeout: 20_000 });
  await second.getByRole('button', { name: 'Menu' }).click();
  await expect(second.getByRole('button', { name: 'Logout' })).toBeVisible();
  await expect(second.getByRole('combobox', { name: 'Units' })).toHaveValue('metric');
  await other.close();
});

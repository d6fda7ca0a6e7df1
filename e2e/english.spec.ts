import { expect, scrollToSection, signIn, test } from './fixtures';
import { FOREIGN, speaksOnly } from './languages';

// Issue 38: the main journeys in a browser that speaks English (and one in Spanish): every word in
// the page's language, none of another (e2e/languages.ts), and every page still fits a 360 px phone.
test.use({ locale: 'en-US', viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true });
test.setTimeout(90_000);

const SESSION = 'hw=000000000042&pista=Interlagos&data=15112026';

test('in English: sign in, the laps of a session, its analysis, my sessions — no Portuguese, 360 px wide', async ({
  page,
}) => {
  await page.goto('/login');
  await expect(page.getByText('Your lap times, sectors and GPS lines after every session on track.')).toBeVisible();
  await speaksOnly(page, 'en', FOREIGN.en);

  // The bundled sign-in page follows the browser too.
  const popupPromise = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Login with Google' }).click();
  const popup = await popupPromise;
  await expect(popup.getByRole('heading', { name: 'Sign in to Voltas (local provider)' })).toBeVisible();
  await expect(popup.locator('html')).toHaveAttribute('lang', 'en');
  await popup.close();

  await signIn(page, { email: 'piloto@voltas.local' });
  await expect(page.getByRole('heading', { name: 'My sessions' })).toBeVisible();
  await speaksOnly(page, 'en', FOREIGN.en);

  await page.goto('/laps');
  await expect(page.getByRole('heading', { name: 'Track selection' })).toBeVisible();
  await page.getByLabel('Track', { exact: true }).selectOption('Interlagos');
  await page.getByRole('button', { name: 'Load' }).click();
  await expect(page).toHaveURL(new RegExp(`/laps\\?${SESSION}$`));
  await expect(page.getByTestId('lap-row').first()).toBeVisible();
  await expect(page.getByText('Heat A').first()).toBeVisible();
  await expect(page.locator('.lap-best')).toContainText('best');
  await speaksOnly(page, 'en', FOREIGN.en);

  await page.goto(`/analytics?${SESSION}`);
  await expect(page.getByRole('heading', { name: /^Lap selection/ })).toBeVisible();
  await expect(page.getByTestId('chart-speed')).toBeVisible();
  await scrollToSection(page, 'Where you lose time');
  await expect(page.getByText('Where you lose time')).toBeVisible();
  await expect(page.getByTestId('loss-card').first()).toBeVisible();
  await speaksOnly(page, 'en', FOREIGN.en);

  for (const path of ['/sessoes', '/progresso?pista=Interlagos', '/enroll', '/importar', '/links']) {
    await page.goto(path);
    await expect(page.locator('h1')).toBeVisible();
    await page.waitForLoadState('networkidle');
    await speaksOnly(page, 'en', FOREIGN.en);
  }

  // A refused request's message comes in English from the server too.
  const refused = await page.request.get('/api/nothing-here', { headers: { 'accept-language': 'en-US' } });
  expect(((await refused.json()) as { mensagem: string }).mensagem).toBe(
    'We could not find what you were looking for.',
  );
});

test.describe('in Spanish', () => {
  test.use({ locale: 'es-AR' });

  test('the laps of a session read in Spanish', async ({ page }) => {
    await signIn(page, { email: 'piloto@voltas.local' });
    await page.goto(`/laps?${SESSION}`);
    await expect(page.getByRole('heading', { name: 'Selección de circuito' })).toBeVisible();
    await expect(page.getByTestId('lap-row').first()).toBeVisible();
    await expect(page.getByText('Tanda A').first()).toBeVisible();
    await speaksOnly(page, 'es', FOREIGN.es);
  });
});

import { expect, test, type Page } from '@playwright/test';
import { signIn } from './fixtures';

// Issue 38: the main journeys in a browser that speaks English (and one in Spanish): every word in
// the page's language, none of Portuguese, and every page still fits a 360 px phone.
test.use({ locale: 'en-US', viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true });
test.setTimeout(90_000);

const SESSION = 'hw=000000000042&pista=Interlagos&data=15112026';

/** Common Portuguese words of the interface (the product's name, Voltas, is a proper name). */
const PORTUGUESE =
  /(?<!\p{L})(não|você|sessão|sessões|pista|pistas|melhor|carregar|carregando|selecione|inclinação|velocidade|minhas|meus|evolução|bateria|distância|setores|salvar|dados|olá|análise|compartilhar|volta|voltas|curva|curvas|trecho|tempo|entrar|sair|saída|entrada|largada)(?!\p{L})/iu;

/** Everything a rider reads or hears on the page: its text, and its labels, titles and alt texts. */
async function wordsOf(page: Page): Promise<string> {
  return page.evaluate(() => {
    const attributes = [...document.querySelectorAll('[aria-label], [title], [alt], [placeholder]')].flatMap((el) =>
      ['aria-label', 'title', 'alt', 'placeholder'].map((a) => el.getAttribute(a) ?? ''),
    );
    const options = [...document.querySelectorAll('option')].map((o) => o.textContent ?? '');
    return [document.title, document.body.innerText, ...attributes, ...options].join('\n');
  });
}

async function speaksOnly(page: Page, language: string, pattern: RegExp = PORTUGUESE) {
  await expect(page.locator('html')).toHaveAttribute('lang', language);
  // The product's name and e-mail addresses (piloto@voltas.local) are names, not words.
  const words = (await wordsOf(page)).replaceAll('Voltas', '').replace(/\S+@\S+/g, '');
  expect(words.match(pattern)?.[0], `${page.url()}: a Portuguese word`).toBeUndefined();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect.soft(width, `${page.url()}: page width`).toBeLessThanOrEqual(360);
}

test('in English: sign in, the laps of a session, its analysis, my sessions — no Portuguese, 360 px wide', async ({
  page,
}) => {
  await page.goto('/login');
  await expect(page.getByText('Your lap times, sectors and GPS lines after every session on track.')).toBeVisible();
  await speaksOnly(page, 'en');

  // The bundled sign-in page follows the browser too.
  const popupPromise = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Login with Google' }).click();
  const popup = await popupPromise;
  await expect(popup.getByRole('heading', { name: 'Sign in to Voltas (local provider)' })).toBeVisible();
  await expect(popup.locator('html')).toHaveAttribute('lang', 'en');
  await popup.close();

  await signIn(page, { email: 'piloto@voltas.local' });
  await expect(page.getByRole('heading', { name: 'My sessions' })).toBeVisible();
  await speaksOnly(page, 'en');

  await page.goto('/laps');
  await expect(page.getByRole('heading', { name: 'Track selection' })).toBeVisible();
  await page.getByLabel('Track', { exact: true }).selectOption('Interlagos');
  await page.getByRole('button', { name: 'Load' }).click();
  await expect(page).toHaveURL(new RegExp(`/laps\\?${SESSION}$`));
  await expect(page.getByTestId('lap-row').first()).toBeVisible();
  await expect(page.getByText('Heat A').first()).toBeVisible();
  await expect(page.locator('.lap-best')).toContainText('best');
  await speaksOnly(page, 'en');

  await page.goto(`/analytics?${SESSION}`);
  await expect(page.getByRole('heading', { name: /^Lap selection/ })).toBeVisible();
  await expect(page.getByTestId('chart-speed')).toBeVisible();
  await expect(page.getByText('Where you lose time')).toBeVisible();
  await expect(page.getByTestId('loss-card').first()).toBeVisible();
  await speaksOnly(page, 'en');

  for (const path of ['/sessoes', '/progresso?pista=Interlagos', '/enroll', '/importar', '/links']) {
    await page.goto(path);
    await expect(page.locator('h1')).toBeVisible();
    await page.waitForLoadState('networkidle');
    await speaksOnly(page, 'en');
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
    await speaksOnly(
      page,
      'es',
      /(?<!\p{L})(você|sessão|sessões|pista|melhor|carregar|bateria|dados|volta|voltas)(?!\p{L})/iu,
    );
  });
});

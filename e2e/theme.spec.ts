import { expect, signIn, test } from './fixtures';

// Issue 25: a light, high-contrast theme for sunlight, from the phone's setting, switchable in the
// menu and kept; the timing colours keep their meaning (with their labels) in both.
test.use({ colorScheme: 'light', viewport: { width: 360, height: 780 } });

const background = (page: import('@playwright/test').Page) =>
  page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);

test('the theme follows the phone, the menu switches it, and the choice stays', async ({ page }) => {
  await signIn(page, { email: 'piloto@voltas.local' });
  expect(await background(page)).toBe('rgb(244, 244, 241)');
  await page.goto('/laps?hw=000000000042&pista=Interlagos&data=15112026');
  // The rider's record stays green (darker, on light) and labelled.
  const best = page.locator('.lap-pb .lap-time');
  await expect(best).toHaveCSS('color', 'rgb(19, 122, 54)');
  await expect(page.locator('.lap-pb [data-testid=personal-best]')).toHaveText('◆ Recorde pessoal');

  await page.getByRole('button', { name: 'Menu' }).click();
  const theme = page.getByTestId('theme-switch');
  await expect(theme).toHaveText('Tema: automático');
  await theme.click();
  await expect(theme).toHaveText('Tema: claro (sol)');
  await theme.click();
  await expect(theme).toHaveText('Tema: escuro');
  expect(await background(page)).toBe('rgb(15, 15, 16)');
  await expect(best).toHaveCSS('color', 'rgb(105, 240, 174)');
  // Kept on this phone.
  await page.reload();
  expect(await background(page)).toBe('rgb(15, 15, 16)');
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByTestId('theme-switch').click();
  await expect(page.getByTestId('theme-switch')).toHaveText('Tema: automático');
  expect(await background(page)).toBe('rgb(244, 244, 241)');
});

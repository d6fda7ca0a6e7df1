import { expect, signIn, signOut, test, uniqueEmail } from './fixtures';

// 'Minhas sessões': the demo rider's own sessions, newest first, filtered by track, opening laps.
test('the demo rider sees their sessions newest first, filters by track and opens one', async ({ page }) => {
  await signIn(page, { email: 'piloto@voltas.local' });
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Minhas sessões' }).click();
  await expect(page.getByRole('heading', { name: 'Minhas sessões', level: 1 })).toBeVisible();
  const rows = page.getByTestId('my-session');
  await expect(rows.getByRole('heading')).toHaveText(['Interlagos, 15/11/2026', 'Curitiba, 19/09/2026']);
  await expect(rows.first()).toContainText(/Melhor volta\s*\d{2}:\d{2}\.\d{3}/);
  await page.getByLabel('Pista').selectOption('Curitiba');
  await expect(rows.getByRole('heading')).toHaveText(['Curitiba, 19/09/2026']);
  await page.setViewportSize({ width: 360, height: 780 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await rows.first().getByRole('link', { name: 'Voltas' }).click();
  await expect(page).toHaveURL(/\/laps\?hw=000000000042&pista=Curitiba&data=19092026/);
  await expect(page.getByTestId('lap-row').first()).toBeVisible();
  await signOut(page);
});

test('home says when the latest sessions cannot be read, never that there are none', async ({ page }) => {
  await signIn(page, { email: uniqueEmail('inicio') });
  await page.route('**/api/sessions?limit=*', (route) =>
    route.fulfill({
      status: 404,
      json: { code: 'storage/object-not-found', message: 'Object does not exist', requestId: 'req-3' },
    }),
  );
  await page.reload();
  const block = page.getByTestId('home-my-sessions');
  await expect(block.getByRole('alert')).toContainText('Não encontramos o que você procurou.');
  await expect(block).not.toContainText('Suas sessões aparecem aqui');
});

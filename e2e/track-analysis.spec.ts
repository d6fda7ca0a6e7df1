import { expect, test } from '@playwright/test';
import { signIn } from './fixtures';

test('where the time goes: corner markers, the corner table and three cards; a card zooms the charts and the map', async ({ page }) => {
  await signIn(page, { email: 'piloto@voltas.local' });
  await page.goto('/analytics?hw=000000000042&pista=Interlagos&data=15112026');
  await expect(page.getByRole('heading', { name: 'Onde você perde tempo' })).toBeVisible();
  const map = page.getByTestId('track-map');
  await expect(map).toHaveAttribute('data-corners', /^[1-9]\d*$/);
  const corners = Number(await map.getAttribute('data-corners'));
  const table = page.getByTestId('corner-table');
  await expect(table.locator('tbody tr')).toHaveCount(corners);
  await expect(page.getByTestId('ideal-lap')).toHaveText(/^\d{2}:\d{2}\.\d{3}$/);

  // The last flying lap against the best: three cards that say what differed, in Portuguese.
  const cards = page.getByTestId('loss-card');
  await expect(cards).toHaveCount(3);
  await expect(cards.first()).toContainText(/^(T\d+|Reta)[^:]*: \+\d,\d{2} s/);
  await expect(cards.first()).toContainText(/freou|ápice|saiu|velocidade máxima|mais devagar/);

  // Tapping a card zooms the charts and the map to that piece of the lap; again shows it all.
  const speed = page.getByTestId('chart-speed');
  await expect(speed).toHaveAttribute('data-ready', 'true');
  await expect(speed).toHaveAttribute('data-x-range', '');
  await cards.first().click();
  await expect(cards.first()).toHaveAttribute('aria-pressed', 'true');
  await expect(speed).toHaveAttribute('data-x-range', /^-?\d+--?\d+$/);
  await expect(map).toHaveAttribute('data-focus', /^-?\d+\.\d+,-?\d+\.\d+$/);
  await page.getByRole('button', { name: 'Ver a volta toda' }).click();
  await expect(speed).toHaveAttribute('data-x-range', '');
  await expect(map).toHaveAttribute('data-focus', '');

  // A corner in the table, by keyboard: the same zoom.
  await table.getByRole('button', { name: /curva T1 no mapa/ }).focus();
  await page.keyboard.press('Enter');
  await expect(map).toHaveAttribute('data-focus', /,/);

  // Another pair of laps: the address keeps it, the comparison follows.
  const lapSelect = page.getByRole('combobox', { name: 'Volta estudada' });
  const options = await lapSelect.locator('option').allTextContents();
  expect(options.length).toBeGreaterThan(3);
  await lapSelect.selectOption({ index: 1 });
  await expect(page).toHaveURL(/estudada=\d+/);
  await expect(page.getByTestId('total-delta')).toHaveText(/No total: [+−]\d,\d{2} s|Escolha duas voltas/);
});

test('the laps screen shows the ideal lap beside the theoretical best', async ({ page }) => {
  await signIn(page, { email: 'piloto@voltas.local' });
  await page.goto('/laps?hw=000000000042&pista=Interlagos&data=15112026');
  await expect(page.getByText('Volta teórica')).toBeVisible();
  await expect(page.getByTestId('ideal-lap')).toHaveText(/^\d{2}:\d{2}\.\d{3}$/);
});

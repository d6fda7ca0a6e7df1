import { execFileSync } from 'node:child_process';
import { E2E_DATA_DIR } from '../playwright.config';
import { expect, holdAnswers, signIn, signOut, test } from './fixtures';

const lapTimes = async (page: import('@playwright/test').Page) =>
  (await page.getByTestId('lap-row').locator('.lap-time').allTextContents()).map((s) => s.trim());

test('the demo rider loads a session, sorts by Tempo twice, sees the best lap and sector details', async ({ page }) => {
  // A wide screen: every column (a phone's compact table is e2e/phone-fit.spec.ts's).
  await page.setViewportSize({ width: 1024, height: 800 });
  await signIn(page, { email: 'piloto@voltas.local' });
  const asksWhoIAm: string[] = [];
  page.on('request', (r) => void (new URL(r.url()).pathname.startsWith('/api/me') && asksWhoIAm.push(r.url())));
  const html = await page.goto('/laps');
  await expect(page.getByRole('heading', { name: 'Seleção da Pista' })).toBeVisible();
  await expect(page.getByText('Selecione pista e data.')).toBeVisible();
  // Who the rider is and their preferences start downloading with the page's HTML, and the app takes
  // those answers: one request each.
  expect(html!.headers().link).toContain('</api/me>; rel=preload; as=fetch; crossorigin');
  expect(html!.headers().link).toContain('</api/me/preferences>; rel=preload; as=fetch; crossorigin');
  const asked = () => asksWhoIAm.map((u) => new URL(u).pathname).sort();
  // The page is there once the app knows who the rider is; their preferences are asked for then.
  expect(asked().filter((p) => p === '/api/me')).toHaveLength(1);
  await expect.poll(asked).toContain('/api/me/preferences');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  expect(asked()).toEqual(['/api/me', '/api/me/preferences']);
  // One device: no hardware dropdown.
  await expect(page.getByLabel('Hardware')).toHaveCount(0);
  // First track picked; its dates ascending, first picked, shown dd/mm/yyyy.
  await expect(page.getByLabel('Pista', { exact: true })).toHaveValue('Curitiba');
  await page.getByLabel('Pista', { exact: true }).selectOption('Interlagos');
  await expect(page.getByLabel('Data', { exact: true })).toHaveValue('15112026');
  await expect(page.getByLabel('Data', { exact: true }).locator('option')).toHaveText(['15/11/2026']);
  await page.getByRole('button', { name: 'Carregar' }).click();

  await expect(page).toHaveURL(/\/laps\?hw=000000000042&pista=Interlagos&data=15112026$/);
  for (const column of ['#', 'Bateria', 'Tempo', 'Distância', 'Entrada', 'Setores']) {
    await expect(page.getByRole('columnheader', { name: column, exact: false }).first()).toBeVisible();
  }
  await expect(page.getByRole('rowgroup').getByText('Bateria A')).toBeVisible();
  const best = page.locator('.lap-best');
  await expect(best).toHaveCount(1);
  await expect(best).toContainText('★ melhor');
  const bestTime = (await best.locator('.lap-time').textContent())!.trim();
  await expect(page.locator('.summary-best dd')).toHaveText(bestTime);
  // Each sector: number, time and distance in metres.
  await expect(best.locator('.sector').first()).toContainText(/S1 \d{2}:\d{2}\.\d{3}.* [\d.]+ m/);

  // Sort by Tempo: ascending first (best lap first in its heat), then descending.
  const tempo = page.getByRole('button', { name: /^Tempo/ });
  await tempo.click();
  await expect(page.getByRole('columnheader', { name: /Tempo/ })).toHaveAttribute('aria-sort', 'ascending');
  const asc = await lapTimes(page);
  await tempo.click();
  await expect(page.getByRole('columnheader', { name: /Tempo/ })).toHaveAttribute('aria-sort', 'descending');
  const desc = await lapTimes(page);
  expect(asc).not.toEqual(desc);
  const firstHeatAsc = await page.getByRole('rowgroup').nth(1).locator('.lap-time').allTextContents();
  expect([...firstHeatAsc].sort().reverse()).toEqual(firstHeatAsc);

  // Reload keeps the selection and the table.
  await page.reload();
  await expect(page.locator('.lap-best')).toHaveCount(1);
  await expect(page.getByLabel('Pista', { exact: true })).toHaveValue('Interlagos');
});

test('a rider with no device sees the demo device, labelled; a second device makes the hardware dropdown appear', async ({
  page,
}) => {
  await signIn(page, { email: 'sem.dispositivo@example.com' });
  await page.goto('/laps');
  await expect(page.getByRole('note')).toContainText('Demonstração');
  await expect(page.getByLabel('Pista', { exact: true })).toHaveValue('Interlagos');
  await expect(page.getByLabel('Data', { exact: true }).locator('option')).toHaveText(['04/10/2026', '08/11/2026']);
  await page.getByRole('button', { name: 'Carregar' }).click();
  await expect(page.locator('.lap-best')).toHaveCount(1);

  await signOut(page);
  await signIn(page, { email: 'piloto@voltas.local' });
  execFileSync(
    process.execPath,
    ['bin/voltas.mjs', 'device', 'add', '000000000043', '--owner', 'piloto@voltas.local'],
    {
      env: { ...process.env, DATA_DIR: E2E_DATA_DIR },
      stdio: 'ignore',
    },
  );
  await page.goto('/laps');
  const hardware = page.getByLabel('Hardware');
  await expect(hardware).toBeVisible();
  await expect(hardware.locator('option')).toHaveText(['000000000042', '000000000043']);
  await hardware.selectOption('000000000043');
  await expect(page.getByText('Nenhuma sessão ainda: ligue o hardware e use Send.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Carregar' })).toBeDisabled();
});

test('the laps table says it is busy until the rider’s record is in, then offers "Comparar com meu recorde"', async ({
  page,
}) => {
  await signIn(page, { email: 'piloto@voltas.local' });
  const release = await holdAnswers(page, '**/api/sessions/records');
  await page.goto('/laps?hw=000000000042&pista=Interlagos&data=15112026');
  const table = page.getByRole('region', { name: 'Tabela de voltas' });
  const compare = table.getByRole('link', { name: /Comparar com meu recorde/ });
  await expect(page.getByTestId('lap-row').first()).toBeVisible();
  await expect(table).toHaveAttribute('aria-busy', 'true');
  await expect(compare).toHaveCount(0);
  release();
  await expect(table).toHaveAttribute('aria-busy', 'false');
  await expect(compare.first()).toBeVisible();
});

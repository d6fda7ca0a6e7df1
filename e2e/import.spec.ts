import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { E2E_DATA_DIR } from '../playwright.config';
import { buildFirebaseExport, type BuiltExport } from '#test/firebase-export.ts';
import { expect, signIn, signOut, test } from './fixtures';

// An old installation moved over with the CLI while the server runs, then checked screen by screen.
// Built in the worker that runs the tests (not where Playwright lists them), and removed after them.
let exp: BuiltExport;

test.beforeAll(() => {
  exp = buildFirebaseExport({ prefix: 'e2e' });
  const output = execFileSync(
    process.execPath,
    ['bin/voltas.mjs', 'import-firebase', '--firestore', exp.firestore, '--storage', exp.storage],
    {
      env: { ...process.env, DATA_DIR: E2E_DATA_DIR, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
    },
  );
  expect(output).toContain('files: 3 stored');
});
test.afterAll(() => rmSync(exp.dir, { recursive: true, force: true }));

test('imported rider: profile on Meus Dados, laps on /laps, GPS on analytics', async ({ page }) => {
  await signIn(page, { email: exp.rider.email });
  await page.goto('/enroll');
  await expect(page.getByLabel('Wi-Fi', { exact: true })).toHaveValue(exp.rider.wifi);
  await expect(page.getByLabel('Nome do Piloto')).toHaveValue(exp.rider.nomePiloto);
  await expect(page.getByLabel('Número da Moto')).toHaveValue(exp.rider.numeroMoto);

  await page.goto('/laps');
  await expect(page.getByRole('note')).toHaveCount(0); // their own device, not the demo
  await expect(page.getByLabel('Pista', { exact: true })).toHaveValue('Curitiba');
  await page.getByLabel('Pista', { exact: true }).selectOption('Interlagos');
  await expect(page.getByLabel('Data', { exact: true }).locator('option')).toHaveText(['15/11/2026']);
  await page.getByRole('button', { name: 'Carregar' }).click();
  await expect(page.getByTestId('lap-row')).toHaveCount(exp.sessions[0]!.generated.laps.length);
  await expect(page.locator('.lap-best')).toHaveCount(1);

  await page.goto(`/analytics?hw=${exp.rider.device}&pista=Interlagos&data=15112026`);
  await expect(page.locator('canvas').first()).toBeVisible();
  await signOut(page);
});

test('imported seller sees the buyer with their device; imported admin sees the devices and the hostile name as text', async ({
  page,
}) => {
  await signIn(page, { email: exp.seller });
  await page.goto('/seller');
  // The buyers' table (the devices' health below it names the buyer too).
  await expect(
    page.getByRole('region', { name: 'Vendas', exact: true }).getByRole('row').filter({ hasText: exp.rider.email }),
  ).toContainText(exp.rider.device);
  await signOut(page);

  await signIn(page, { email: exp.admin });
  await page.goto('/hardware');
  for (const id of [exp.rider.device, exp.stockDevice]) {
    await expect(page.getByRole('row').filter({ hasText: id })).toContainText(exp.seller);
  }
  await page.goto('/adm');
  await expect(page.getByRole('row').filter({ hasText: exp.rider.email })).toContainText(exp.rider.device);
  const hostile = page.getByRole('row').filter({ hasText: '<img src=x onerror=alert(1)>' });
  await expect(hostile).toHaveCount(1); // shown as text, never as markup
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  await signOut(page);
});

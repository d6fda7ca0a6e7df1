import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { startCluster, type Cluster } from './cluster';
import { signImage } from './firmware-sign';
import { expect, signIn, test as base, type Page } from './fixtures';
import { FOREIGN, speaksOnly } from './languages';

// Issue 61 on the scaled-out installation: PostgreSQL + S3 and two instances of the server. The admin,
// in Chromium on instance A, uploads a signed image (it lands in the bucket) and rolls it out to 10 %;
// the simulated fleet (`voltas simulate --fleet`, several devices at once), split across A and B,
// takes it: the 10 % is done by itself, the admin widens it to 50 %, and the failures halt it by
// themselves while other devices are mid-download. Instance B shows the same, in English and Spanish.
// firmware.spec.ts covers the rest of the pages on SQLite and one instance.
const test = base.extend<{ cluster: Cluster }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from this pattern
  cluster: async ({}, use) => {
    const cluster = await startCluster();
    try {
      await use(cluster);
    } finally {
      await cluster.stop();
    }
  },
  baseURL: async ({ cluster }, use) => use(cluster.a),
});
test.use({ viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true });
test.setTimeout(300_000);

const FLEET = 80;
const VERSION = '4.0.0';
const hwClass = `pg-${Date.now().toString(36)}`;

interface FleetSummary {
  offers: number;
  confirmed: number;
  withdrawn: number;
  resumed: number;
  failed: Record<string, number>;
}

/** The simulated fleet, registered in the shared database, its devices alternating between A and B. */
async function simulate(cluster: Cluster, args: string[]): Promise<FleetSummary> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      'bin/voltas.mjs',
      'simulate',
      '--fleet',
      String(FLEET),
      '--server',
      `${cluster.a},${cluster.b}`,
      '--class',
      hwClass,
      '--version',
      '1.0.0',
      '--drop-share',
      '0.5',
      '--concurrency',
      '8',
      ...args,
    ],
    { env: { ...process.env, ...cluster.env }, maxBuffer: 16 << 20 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as FleetSummary;
}

/** The page is no wider than the 360 px phone. */
async function fits(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect.soft(width, `${page.url()}: page width`).toBeLessThanOrEqual(360);
}

test('on PostgreSQL + S3 with two instances, a rollout goes 10 % → 50 % → halted by failures', async ({
  page,
  browser,
  cluster,
}) => {
  const image = randomBytes(64 * 1024);
  const signed = signImage(image, hwClass, VERSION);
  await signIn(page, { email: 'admin@voltas.local' });
  await page.goto('/firmware');
  await page.getByLabel('Manifesto (JSON)').fill(signed.manifest);
  await page.getByLabel('Assinatura (base64)').fill(signed.signature);
  await page.getByLabel('Imagem do firmware').setInputFiles({
    name: 'voltas.bin',
    mimeType: 'application/octet-stream',
    buffer: image,
  });
  await page.getByRole('button', { name: 'Enviar imagem' }).click();
  await expect(page.getByText(`Imagem ${VERSION} para ${hwClass} aceita`)).toBeVisible();

  // To everyone, 10 % first; halts past 25 % failures among 4 devices.
  await page.getByLabel('Imagem', { exact: true }).selectOption({ label: `${VERSION} (${hwClass})` });
  await page.getByLabel('Parcela dos hardwares (%)').fill('10');
  await page.getByLabel('Parar quando as falhas passarem de (%)').fill('25');
  await page.getByLabel('Julgar só depois de (hardwares)').fill('4');
  await page.getByRole('button', { name: 'Começar a distribuição' }).click();
  await expect(page.getByText('Distribuição começada')).toBeVisible();
  const card = page.locator('.rollout').filter({ hasText: `${VERSION} para ${hwClass}` });
  const state = card.getByTestId('rollout-state');
  await expect(state).toHaveText('em andamento');

  // The fleet checks in through both instances; its 10 % downloads (from the bucket, by ranges,
  // some through dropped links) and confirms: nothing is left of that share, so it is done.
  const first = await simulate(cluster, ['--rounds', '1', '--fail-share', '0', '--seed', '1']);
  test.info().annotations.push({ type: 'fleet at 10 %', description: JSON.stringify(first) });
  expect(first.offers, 'devices in the first 10 %').toBeGreaterThan(0);
  expect(first.offers).toBeLessThan(FLEET / 3);
  expect(first.confirmed).toBe(first.offers);
  await expect(state).toHaveText('concluída', { timeout: 15_000 });
  const funnel = card.getByRole('list', { name: `Funil da distribuição ${VERSION}` });
  await expect(funnel.locator('[data-step=confirmed] .funnel-count')).toHaveText(String(first.confirmed));
  await expect(card).toContainText('Concluída: todos os hardwares da parcela terminaram');

  // One click widens it to half the fleet; this time most installs fail.
  await card.getByRole('button', { name: 'Passar a 50%' }).click();
  await expect(state).toHaveText('em andamento');
  await expect(card).toContainText('50% de: Todos os hardwares');
  const second = await simulate(cluster, ['--rounds', '2', '--fail-share', '0.6', '--seed', '2']);
  test.info().annotations.push({ type: 'fleet at 50 %', description: JSON.stringify(second) });
  expect(second.failed['install-failed'], 'installs that failed').toBeGreaterThan(0);

  // Halted by itself, for everyone, with the reason in the page's words.
  await expect(state).toHaveText('⚠ parada por falhas', { timeout: 15_000 });
  await expect(card.locator('.failure-codes')).toContainText('install-failed');
  await expect(
    card.getByText(/^Parada sozinha: \d+ de \d+ hardwares falharam \(\d+%, acima de 25%\)\.$/),
  ).toBeVisible();
  await expect(card.getByRole('button', { name: /^Passar a/ })).toHaveCount(0);
  await fits(page);
  // The audit log says who did what: the system finished the 10 % and halted the 50 %.
  await page.goto('/auditoria');
  await expect(page.getByRole('row').filter({ hasText: 'distribuição concluída' }).first()).toBeVisible();
  await expect(
    page
      .getByRole('row')
      .filter({ hasText: 'distribuição parada por falhas' })
      .filter({ hasText: 'falhas acima do limite' }),
  ).toHaveCount(1);

  // Instance B, in English and Spanish: the same rollout, halted, said in each language.
  for (const [locale, language, halted, reason] of [
    ['en-US', 'en', '⚠ halted by failures', /^Halted by itself: \d+ of \d+ devices failed/],
    ['es-ES', 'es', '⚠ detenida por fallos', /^Detenida sola: fallaron \d+ de \d+ dispositivos/],
  ] as const) {
    const context = await browser.newContext({
      baseURL: cluster.b,
      locale,
      viewport: { width: 360, height: 780 },
      isMobile: true,
      hasTouch: true,
    });
    const other = await context.newPage();
    await signIn(other, { email: 'admin@voltas.local' });
    await other.goto('/firmware');
    const there = other.locator('.rollout').filter({ hasText: hwClass });
    await expect(there.getByTestId('rollout-state')).toHaveText(halted);
    await expect(there.getByText(reason)).toBeVisible();
    await speaksOnly(other, language, FOREIGN[language]);
    await fits(other);
    await context.close();
  }
});

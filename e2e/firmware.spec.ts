import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { E2E_FIRMWARE_PUBLIC_KEY } from './firmware-key';
import { signImage } from './firmware-sign';
import { expect, signIn, signOut, test, uniqueEmail, type APIRequestContext, type Page } from './fixtures';
import { FOREIGN, speaksOnly } from './languages';

// Issue 61: an admin uploads an image signed off the server and rolls it out; a fleet of devices
// (driven over the device API, as firmware would) checks in, downloads by ranges, installs and
// confirms, or fails; the rollout goes 10 % → 50 % and then halts by itself on the failures. The
// hardware page, the funnel and the seller's view show it, in pt-BR, en and es, on a 360 px phone.
test.use({ viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true });
test.setTimeout(240_000);

const FLEET = 60;
const SELLER = 'vendedor@voltas.local';
const run = Date.now().toString(36);
const hwClass = `e2e-${run}`;
const NEW_VERSION = '2.0.0';
const OLD_VERSION = '1.0.0';

interface Device {
  id: string;
  token: string;
  version: string;
  /** Told to fail the install once offered (a share of the fleet, as a bad image would). */
  failing: boolean;
  /** How its install ended, once it was offered the update. */
  outcome?: 'confirmed' | 'failed';
  /** Told how its last upload went, and how full it is: the hardware page lists these first. */
  lastUploadError?: string;
  freeStorageKb: number;
}

/** The page is no wider than the 360 px phone (its tables scroll in their own box). */
async function fits(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect.soft(width, `${page.url()}: page width`).toBeLessThanOrEqual(360);
}

/** Fails the test on a CSP violation or an uncaught error of the page. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content.Security.Policy|Refused to/i.test(m.text())) errors.push(`csp: ${m.text()}`);
  });
  return errors;
}

const auth = (d: Device) => ({ authorization: `Bearer ${d.token}` });

async function checkIn(api: APIRequestContext, d: Device, extra: Record<string, unknown> = {}) {
  const res = await api.post('/api/device/v1/check-in', {
    headers: auth(d),
    data: {
      firmware: { version: d.version, slot: 'a' },
      hardware: { class: hwClass },
      battery: 80,
      charging: true,
      freeStorageKb: d.freeStorageKb,
      queuedSessions: 0,
      lastUploadError: d.lastUploadError ?? '',
      resetReason: 'power-on',
      rssi: -60,
      uptimeS: 600,
      ...extra,
    },
  });
  expect(res.status(), `check-in of ${d.id}`).toBe(200);
  return (await res.json()) as {
    update: { manifest: string; signature: string; rolloutId: string; url: string } | null;
  };
}

async function report(api: APIRequestContext, d: Device, rolloutId: string, state: string, error?: string) {
  const res = await api.post('/api/device/v1/firmware-report', { headers: auth(d), data: { rolloutId, state, error } });
  expect(res.status(), `report ${state} of ${d.id}`).toBe(200);
}

/**
 * One device's turn: check in; if offered, download the image in two ranges (as a link that drops
 * half way and resumes would), check it against the signed hash, then install and confirm after its
 * reboot, or fail with a boot loop. Returns whether it was offered the update.
 */
async function deviceTurn(api: APIRequestContext, d: Device, image: Buffer): Promise<boolean> {
  const { update } = await checkIn(api, d);
  if (!update) return false;
  const manifest = JSON.parse(update.manifest) as { sha256: string; size: number; version: string };
  await report(api, d, update.rolloutId, 'downloading');
  const half = Math.floor(manifest.size / 2);
  const first = await api.get(update.url, { headers: { ...auth(d), range: `bytes=0-${half - 1}` } });
  expect(first.status()).toBe(206);
  const rest = await api.get(update.url, { headers: { ...auth(d), range: `bytes=${half}-` } });
  expect(rest.status()).toBe(206);
  const bytes = Buffer.concat([await first.body(), await rest.body()]);
  expect(createHash('sha256').update(bytes).digest('hex')).toBe(manifest.sha256);
  expect(bytes.equals(image)).toBe(true);
  await report(api, d, update.rolloutId, 'downloaded');
  await report(api, d, update.rolloutId, 'installing');
  if (d.failing) {
    await report(api, d, update.rolloutId, 'failed', 'boot-loop');
    d.outcome = 'failed';
    return true;
  }
  await report(api, d, update.rolloutId, 'rebooted');
  // Success counts only once the new image, booted, says so itself.
  d.version = manifest.version;
  await checkIn(api, d, { firmware: { version: d.version, slot: 'b', pendingVerify: true } });
  await report(api, d, update.rolloutId, 'confirmed');
  d.outcome = 'confirmed';
  return true;
}

test('an admin rolls signed firmware out; the fleet updates; failures halt it by themselves', async ({
  page,
  browser,
  baseURL,
  playwright,
}) => {
  const errors = watchErrors(page);
  const image = randomBytes(96 * 1024);
  const signed = signImage(image, hwClass, NEW_VERSION);

  // The devices speak to the device API with their own tokens, no browser cookies.
  const api = await playwright.request.newContext({ baseURL });
  // The admin registers the fleet: a third of it the seller's stock.
  // A rider of this test's own (the demo rider's devices are other tests' business); signed in once
  // so the account exists when the admin hands them a device.
  const rider = uniqueEmail('frota');
  await signIn(page, { email: rider });
  await signOut(page);
  await signIn(page, { email: 'admin@voltas.local' });
  const fleet: Device[] = [];
  const base = 100_000_000_000 + Math.floor(Math.random() * 800_000_000_000);
  for (let i = 0; i < FLEET; i++) {
    const id = String(base + i).padStart(12, '0');
    const res = await page.request.post('/api/admin/devices', {
      data: i % 3 === 0 ? { id, seller: SELLER } : { id },
    });
    expect(res.status(), `register ${id}`).toBeLessThan(300);
    const { token } = (await res.json()) as { token: string };
    fleet.push({ id, token, version: OLD_VERSION, failing: false, freeStorageKb: 500_000 });
  }
  // Two devices that need a look: one whose uploads fail, one nearly full.
  fleet[1]!.lastUploadError = 'timeout';
  fleet[2]!.freeStorageKb = 10;
  for (const d of fleet) expect((await checkIn(api, d)).update).toBeNull();

  // The admin uploads the signed image: the manifest and signature pasted, then the bytes.
  await page.goto('/firmware');
  await expect(page.getByRole('heading', { name: 'Firmware', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Nova distribuição' })).toBeVisible();
  // A wrong manifest, a wrong signature and no image are each named before anything is sent.
  await page.getByLabel('Manifesto (JSON)').fill('{"class": 1}');
  await page.getByLabel('Assinatura (base64)').fill('abc');
  await page.getByRole('button', { name: 'Enviar imagem' }).click();
  await expect(page.getByText('O manifesto não é o JSON que o comando de assinatura imprime')).toBeVisible();
  await expect(page.getByText('A assinatura deve ser o base64 de 64 bytes')).toBeVisible();
  await expect(page.getByText('Escolha o arquivo da imagem.')).toBeVisible();
  await page.getByLabel('Manifesto (JSON)').fill(signed.manifest);
  await page.getByLabel('Assinatura (base64)').fill(signed.signature);
  // An image other than the one signed is refused by its size, here, and by its hash on the server.
  await page.getByLabel('Imagem do firmware').setInputFiles({
    name: 'wrong.bin',
    mimeType: 'application/octet-stream',
    buffer: image.subarray(1),
  });
  await page.getByRole('button', { name: 'Enviar imagem' }).click();
  await expect(page.getByText(`Este arquivo tem ${image.length - 1} bytes`)).toBeVisible();
  await page.getByLabel('Imagem do firmware').setInputFiles({
    name: 'voltas.bin',
    mimeType: 'application/octet-stream',
    buffer: image,
  });
  // A signature no configured key made (one character changed) is refused by the server, in words.
  const tampered = (signed.signature[0] === 'A' ? 'B' : 'A') + signed.signature.slice(1);
  await page.getByLabel('Assinatura (base64)').fill(tampered);
  await page.getByRole('button', { name: 'Enviar imagem' }).click();
  await expect(page.getByText('O manifesto não está assinado por nenhuma chave')).toBeVisible();
  // The signing command's output, opened as a file, fills both fields again.
  await page.getByLabel('Abrir a saída do comando (JSON)').setInputFiles({
    name: 'signed.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(signed)),
  });
  await expect(page.getByLabel('Assinatura (base64)')).toHaveValue(signed.signature);
  // The link drops while the image goes up: nothing kept, the image still missing, and said so.
  await page.route('**/api/admin/firmware/*/image', (route) => route.abort('connectionreset'));
  await page.getByRole('button', { name: 'Enviar imagem' }).click();
  await expect(page.getByText('O envio da imagem parou no meio; nada foi guardado.')).toBeVisible();
  const imageRow = page.getByRole('region', { name: 'Imagens' }).getByRole('row').filter({ hasText: hwClass });
  await expect(imageRow).toContainText('falta a imagem');
  await page.unroute('**/api/admin/firmware/*/image');
  // Sent again: only the image goes (the manifest is already there), with its progress.
  await page.getByRole('button', { name: 'Enviar imagem' }).click();
  await expect(page.getByText(`Imagem ${NEW_VERSION} para ${hwClass} aceita`)).toBeVisible();
  await expect(imageRow).toContainText('pronta');

  // A rollout to everyone, 10 % of the fleet; halts past 30 % failures among 6 devices.
  await page.getByLabel('Imagem', { exact: true }).selectOption({ label: `${NEW_VERSION} (${hwClass})` });
  await page.getByLabel('Parcela dos hardwares (%)').fill('10');
  await page.getByLabel('Parar quando as falhas passarem de (%)').fill('30');
  await page.getByLabel('Julgar só depois de (hardwares)').fill('6');
  await page.getByRole('button', { name: 'Começar a distribuição' }).click();
  await expect(page.getByText('Distribuição começada')).toBeVisible();
  const card = page.locator('.rollout').filter({ hasText: `${NEW_VERSION} para ${hwClass}` });
  await expect(card.getByTestId('rollout-state')).toHaveText('em andamento');
  await expect(card).toContainText('10% de: Todos os hardwares');

  // The fleet checks in: about a tenth is offered the image and installs it.
  let offeredAt10 = 0;
  for (const d of fleet) if (await deviceTurn(api, d, image)) offeredAt10++;
  expect(offeredAt10, 'devices in the first 10 %').toBeGreaterThan(0);
  expect(offeredAt10).toBeLessThan(FLEET / 2);
  const funnel = card.getByRole('list', { name: `Funil da distribuição ${NEW_VERSION}` });
  await expect(funnel.locator('[data-step=offered] .funnel-count')).toHaveText(String(offeredAt10));
  await expect(funnel.locator('[data-step=confirmed] .funnel-count')).toHaveText(String(offeredAt10));
  await expect(funnel.locator('[data-step=failed] .funnel-count')).toHaveText('0');
  await expect(card).toContainText('Nenhuma falha relatada.');
  // Every device of that tenth has confirmed: the rollout is done by itself, and can still be widened.
  await expect(card.getByTestId('rollout-state')).toHaveText('concluída');

  // One click widens it to half the fleet; this time the image boot-loops on most devices.
  await card.getByRole('button', { name: 'Passar a 50%' }).click();
  await expect(card).toContainText('50% de: Todos os hardwares');
  fleet.forEach((d, i) => (d.failing = d.version === OLD_VERSION && i % 4 !== 0));
  let offeredAt50 = 0;
  for (const d of fleet) if (await deviceTurn(api, d, image)) offeredAt50++;
  expect(offeredAt50, 'devices newly in at 50 %').toBeGreaterThan(0);

  // Failures passed the threshold: the rollout halted itself, for everyone.
  await expect(card.getByTestId('rollout-state')).toHaveText('⚠ parada por falhas', { timeout: 15_000 });
  await expect(card.locator('.failure-codes')).toContainText('boot-loop');
  await expect(card.getByRole('button', { name: 'Pausar' })).toHaveCount(0);
  const failed = Number(await funnel.locator('[data-step=failed] .funnel-count').textContent());
  expect(failed).toBeGreaterThan(0);
  for (const d of fleet) expect((await checkIn(api, d)).update, `no offer to ${d.id} once halted`).toBeNull();

  // The version spread counts the devices that updated.
  const updated = fleet.filter((d) => d.outcome === 'confirmed');
  await fits(page);
  const spread = page.getByRole('region', { name: 'Versões na frota' });
  await expect(spread.getByRole('row').filter({ hasText: NEW_VERSION }).filter({ hasText: hwClass })).toContainText(
    `${updated.length} hardware`,
  );

  // The hardware page: the spec's table with the fleet's health; the two devices needing a look first.
  await page.goto('/hardware');
  await expect(page.getByRole('columnheader', { name: /^Up.*visto por último/ })).toBeVisible();
  const table = page.getByRole('region', { name: '[hardware] Add hardware ao vendedor' });
  const uploads = table.getByRole('row').filter({ hasText: fleet[1]!.id });
  await expect(uploads).toContainText('Envios falhando');
  await expect(uploads).toContainText('último: timeout');
  await expect(table.getByRole('row').filter({ hasText: fleet[2]!.id })).toContainText('Pouco espaço');
  // Its kept check-ins, one click away: each of them told of the failing upload.
  await uploads.getByRole('button', { name: `Histórico de ${fleet[1]!.id}` }).click();
  await expect(page.getByRole('heading', { name: `Histórico do hardware ${fleet[1]!.id}` })).toBeFocused();
  const history = page.getByRole('region', { name: `Histórico de ${fleet[1]!.id}` });
  await expect(history.getByRole('row').nth(1)).toContainText('timeout');
  await page.getByRole('button', { name: 'Fechar o histórico' }).click();
  await expect(history).toHaveCount(0);
  const attentionRows = await table.locator('tbody tr.row-attention').count();
  expect(attentionRows).toBeGreaterThanOrEqual(2);
  const firstRows = await table
    .locator('tbody tr')
    .evaluateAll((rows, n) => rows.slice(0, n).every((r) => r.classList.contains('row-attention')), attentionRows);
  expect(firstRows, 'devices needing attention come first').toBe(true);
  const done = table.getByRole('row').filter({ hasText: updated[0]!.id });
  await expect(done).toContainText(NEW_VERSION);
  await expect(done).toContainText(`${NEW_VERSION}: confirmada`);
  const broken = fleet.find((d) => d.outcome === 'failed')!;
  await expect(table.getByRole('row').filter({ hasText: broken.id })).toContainText(`${NEW_VERSION}: falhou`);
  await fits(page);
  // Still the spec's sortable table.
  await page.getByRole('button', { name: /^Version/ }).click();
  await expect(page.getByRole('columnheader', { name: /^Version/ })).toHaveAttribute('aria-sort', 'ascending');
  // One of the updated devices goes to a rider.
  const ridden = updated.find((d) => fleet.indexOf(d) % 3 !== 0)!;
  const handed = await page.request.post('/api/admin/assign-owner', {
    data: { email: rider, deviceId: ridden.id },
  });
  expect(handed.status()).toBe(200);
  await signOut(page);

  // The seller sees their stock's health, and none of the other devices.
  await signIn(page, { email: SELLER });
  await page.goto('/seller');
  const mine = page.getByRole('region', { name: 'Saúde dos meus hardwares' });
  const stock = fleet.filter((_, i) => i % 3 === 0);
  await expect(mine.getByRole('row').filter({ hasText: stock[0]!.id })).toContainText('em estoque');
  await expect(mine.getByRole('row').filter({ hasText: fleet[1]!.id })).toHaveCount(0);
  const stockUpdated = stock.find((d) => d.version === NEW_VERSION);
  if (stockUpdated) await expect(mine.getByRole('row').filter({ hasText: stockUpdated.id })).toContainText(NEW_VERSION);
  await fits(page);
  await signOut(page);

  // The rider sees, on 'meus dados', the firmware their device runs and when it last called.
  await signIn(page, { email: rider });
  await page.goto('/enroll');
  const theirs = page.getByRole('listitem').filter({ hasText: ridden.id });
  await expect(theirs.getByTestId('device-contact')).toHaveText(
    /^firmware 2\.0\.0 · último contato (agora|há \d+ minutos?)$/,
  );
  await fits(page);
  expect(errors).toEqual([]);
  await api.dispose();

  // The same pages in English and Spanish, on the phone: only that language, nothing wider than 360 px.
  for (const [locale, language] of [
    ['en-US', 'en'],
    ['es-ES', 'es'],
  ] as const) {
    const context = await browser.newContext({
      baseURL,
      locale,
      viewport: { width: 360, height: 780 },
      isMobile: true,
      hasTouch: true,
    });
    const other = await context.newPage();
    const otherErrors = watchErrors(other);
    await signIn(other, { email: 'admin@voltas.local' });
    await other.goto('/firmware');
    await expect(other.locator('.rollout').filter({ hasText: hwClass }).getByTestId('rollout-state')).toHaveText(
      language === 'en' ? '⚠ halted by failures' : '⚠ detenida por fallos',
    );
    await speaksOnly(other, language, FOREIGN[language]);
    await fits(other);
    await other.goto('/hardware');
    await expect(other.getByRole('row').filter({ hasText: fleet[1]!.id })).toContainText(
      language === 'en' ? 'Uploads failing' : 'Envíos fallando',
    );
    await speaksOnly(other, language, FOREIGN[language]);
    await fits(other);
    // Signed out by dropping the session ('Logout' is a word of each language here).
    await context.clearCookies();
    await signIn(other, { email: SELLER });
    await other.goto('/seller');
    await expect(other.getByRole('row').filter({ hasText: stock[0]!.id })).toContainText(
      language === 'en' ? 'in stock' : 'en stock',
    );
    await speaksOnly(other, language, FOREIGN[language]);
    await fits(other);
    // The rider's 'meus dados': their device's firmware and last contact, in that language.
    await context.clearCookies();
    await signIn(other, { email: rider });
    await other.goto('/enroll');
    await expect(other.getByRole('listitem').filter({ hasText: ridden.id }).getByTestId('device-contact')).toHaveText(
      language === 'en' ? /^firmware 2\.0\.0 · last contact / : /^firmware 2\.0\.0 · último contacto /,
    );
    await speaksOnly(other, language, FOREIGN[language]);
    await fits(other);
    expect(otherErrors).toEqual([]);
    await context.close();
  }
});

test('the simulated fleet (voltas simulate --fleet) takes a rollout, and its failures halt it', async ({
  page,
  baseURL,
}) => {
  const errors = watchErrors(page);
  const simClass = `sim-${run}`;
  const image = randomBytes(64 * 1024);
  const signed = signImage(image, simClass, '3.0.0');
  // The upload through the page is the test above's; here the admin API takes it.
  await signIn(page, { email: 'admin@voltas.local' });
  const created = await page.request.post('/api/admin/firmware', { data: signed });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const put = await page.request.put(`/api/admin/firmware/${id}/image`, {
    headers: { 'content-type': 'application/octet-stream' },
    data: image,
  });
  expect(put.status()).toBe(200);

  // The admin starts it on the page: half the fleet, halting past 25 % failures among 5 devices.
  await page.goto('/firmware');
  await page.getByLabel('Imagem', { exact: true }).selectOption({ label: `3.0.0 (${simClass})` });
  await page.getByLabel('Parcela dos hardwares (%)').fill('50');
  await page.getByLabel('Parar quando as falhas passarem de (%)').fill('25');
  await page.getByLabel('Julgar só depois de (hardwares)').fill('5');
  await page.getByRole('button', { name: 'Começar a distribuição' }).click();
  await expect(page.getByText('Distribuição começada')).toBeVisible();

  // 40 simulated devices: half their installs fail, one boot-loops, one lies about its board, half
  // their links drop mid-download and resume by Range.
  const out = execFileSync(
    process.execPath,
    [
      'bin/voltas.mjs',
      'simulate',
      '--fleet',
      '40',
      '--server',
      baseURL!,
      '--class',
      simClass,
      '--version',
      '1.0.0',
      '--rounds',
      '3',
      '--fail-share',
      '0.5',
      '--reboot-loops',
      '1',
      '--liars',
      '1',
      '--drop-share',
      '0.5',
      '--seed',
      '61',
      // Several devices at once: some are mid-download when the rollout halts, and drop the offer.
      '--concurrency',
      '6',
    ],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        DATA_DIR: process.env.E2E_DATA_DIR ?? '.tmp/e2e-data',
        FIRMWARE_PUBLIC_KEYS: E2E_FIRMWARE_PUBLIC_KEY,
        LOG_LEVEL: 'warn',
      },
    },
  );
  const summary = JSON.parse(out.trim().split('\n').at(-1)!) as {
    offers: number;
    resumed: number;
    withdrawn: number;
    confirmed: number;
    failed: Record<string, number>;
  };
  expect(summary.offers).toBeGreaterThan(0);
  expect(summary.resumed, 'downloads resumed after a dropped link').toBeGreaterThan(0);
  expect(Object.values(summary.failed).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);

  // The page shows it halted by itself, with the codes the devices reported.
  const card = page.locator('.rollout').filter({ hasText: `3.0.0 para ${simClass}` });
  await expect(card.getByTestId('rollout-state')).toHaveText('⚠ parada por falhas', { timeout: 15_000 });
  for (const code of Object.keys(summary.failed)) await expect(card.locator('.failure-codes')).toContainText(code);
  await fits(page);

  // The hardware page lists the simulated devices with what they run.
  await page.goto('/hardware');
  const table = page.getByRole('region', { name: '[hardware] Add hardware ao vendedor' });
  await expect(table.getByRole('row').filter({ hasText: '770000000001' })).toBeVisible();
  if (summary.confirmed > 0)
    await expect(table.getByRole('row').filter({ hasText: '3.0.0: confirmada' })).toHaveCount(summary.confirmed);
  expect(errors).toEqual([]);
});

import { execFileSync } from 'node:child_process';
import { expect, signIn, signOut, test, uniqueEmail } from './fixtures';

// Four roles and three device uploads in one journey, the longest test outside the video ones:
// twice the default limit, as a busy machine takes two or three times as long.
test.setTimeout(120_000);

test('admin registers and assigns a device, the seller sells it, the buyer sees its uploaded laps', async ({
  page,
  baseURL,
}) => {
  const buyer = uniqueEmail('comprador');
  const deviceId = `0000000${Math.floor(10000 + Math.random() * 89999)}`;
  await signIn(page, { email: buyer, name: 'Comprador Novo' });
  await signOut(page);

  // Admin: register the device (token shown once) and give it to the seller.
  await signIn(page, { email: 'admin@voltas.local' });
  await page.goto('/hardware');
  await expect(page.getByRole('heading', { name: '[hardware] Add hardware ao vendedor' })).toBeVisible();
  await page.getByLabel('ID do hardware (12 dígitos)').fill('123');
  await page.getByRole('button', { name: 'Cadastrar hardware' }).click();
  await expect(page.getByText('Use exatamente 12 dígitos')).toBeVisible();
  await page.getByLabel('ID do hardware (12 dígitos)').fill(deviceId);
  await page.getByRole('button', { name: 'Cadastrar hardware' }).click();
  const token = (await page.getByTestId('device-token').textContent())!.trim();
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  // How to put it on the device: steps, and a QR code a phone can carry.
  await expect(page.getByRole('heading', { name: 'Como gravar no hardware' })).toBeVisible();
  await expect(page.getByRole('img', { name: `QR code do token do hardware ${deviceId}` })).toBeVisible();
  // The id field is one line tall.
  expect((await page.getByLabel('ID do hardware (12 dígitos)').boundingBox())!.height).toBeLessThan(60);
  // Nothing happens unless both dropdowns are chosen.
  await page.getByRole('button', { name: 'Cadastrar', exact: true }).click();
  await expect(page.getByText('Escolha as duas opções antes de cadastrar.')).toBeVisible();
  await page.getByLabel('Selecione um hardware').selectOption(deviceId);
  await page.getByLabel('Selecione o vendedor').selectOption('vendedor@voltas.local');
  await page.getByRole('button', { name: 'Cadastrar', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Cadastrado!' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: deviceId });
  await expect(row).toContainText('vendedor@voltas.local');
  await expect(row).toContainText('company@voltas.local');
  // Sorting: a header sorts ascending, again descending.
  await page.getByRole('button', { name: /^ID/ }).click();
  await expect(page.getByRole('columnheader', { name: /^ID/ })).toHaveAttribute('aria-sort', 'ascending');
  await page.getByRole('button', { name: /^ID/ }).click();
  await expect(page.getByRole('columnheader', { name: /^ID/ })).toHaveAttribute('aria-sort', 'descending');

  // Admin: make the buyer the seller's customer.
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('link', { name: 'adm-seller' }).click();
  await expect(page.getByRole('heading', { name: '[seller-adm] add o vendedor ao comprador' })).toBeVisible();
  // The buyer is found by typing (every user is in that list): one match is chosen at once.
  const buyers = page.getByLabel('Selecione o comprador');
  await buyers.locator('..').getByPlaceholder('Digite para filtrar a lista').fill(buyer);
  await expect(buyers).toHaveValue(buyer);
  await expect(buyers.locator('option')).toHaveCount(2); // '—' and the buyer
  await page.getByLabel('Selecione o vendedor').selectOption('vendedor@voltas.local');
  await page.getByRole('button', { name: 'Cadastrar', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Cadastrado!' })).toBeVisible();

  // The /adm table shows the link, and the audit page records each change.
  await page.goto('/adm');
  await expect(page.getByRole('heading', { name: '[adm] Add owner em hardware' })).toBeVisible();
  for (const col of ['ID', 'Hardware', 'Adm', 'Nome Piloto', 'Número Moto', 'Seller', 'Wi-Fi', 'User Seller']) {
    await expect(page.getByRole('columnheader', { name: new RegExp(`^${col}`) }).first()).toBeVisible();
  }
  await expect(page.getByRole('row').filter({ hasText: buyer })).toContainText('vendedor@voltas.local');
  await page.goto('/auditoria');
  await expect(
    page.getByRole('row').filter({ hasText: 'hardware cadastrado' }).filter({ hasText: deviceId }),
  ).toHaveCount(1);
  await signOut(page);

  // Seller: hand the device to the buyer.
  await signIn(page, { email: 'vendedor@voltas.local' });
  await page.goto('/seller');
  await page.getByLabel('Selecione um usuário').selectOption(buyer);
  await page.getByLabel('Selecione um Laptime').selectOption(deviceId);
  // Selling re-keys the device: asked first; declining changes nothing.
  page.once('dialog', (d) => {
    expect(d.message()).toContain(`Vender o hardware ${deviceId} para ${buyer}?`);
    void d.dismiss();
  });
  await page.getByRole('button', { name: 'Cadastrar', exact: true }).click();
  await expect(page.getByTestId('device-token')).toHaveCount(0);
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Cadastrar', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Cadastrado!' })).toBeVisible();
  // The buyers' table (the health table below lists the sold device too, now the buyer's).
  await expect(page.getByRole('region', { name: 'Vendas' }).getByRole('row').filter({ hasText: buyer })).toContainText(
    deviceId,
  );
  await expect(
    page.getByRole('region', { name: 'Saúde dos meus hardwares' }).getByRole('row').filter({ hasText: deviceId }),
  ).toContainText(buyer);
  // The sale replaced the token: the new one is shown once, to load into the device.
  await expect(page.getByText(`Novo dono: o token antigo do hardware ${deviceId} deixou de funcionar.`)).toBeVisible();
  const soldToken = (await page.getByTestId('device-token').textContent())!.trim();
  expect(soldToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(soldToken).not.toBe(token);
  await signOut(page);

  // The device uploads a session with its new token, through the real API; the old one no longer works.
  const simulate = (withToken: string, date: string) =>
    execFileSync(
      process.execPath,
      [
        'bin/voltas.mjs',
        'simulate',
        '--server',
        baseURL!,
        '--device',
        deviceId,
        '--token',
        withToken,
        '--track',
        'Curitiba',
        '--date',
        date,
      ],
      { stdio: 'ignore' },
    );
  expect(() => simulate(token, '19112026')).toThrow();
  simulate(soldToken, '20112026');

  // The buyer sees it.
  await signIn(page, { email: buyer });
  await page.goto('/laps');
  await expect(page.getByLabel('Pista', { exact: true })).toHaveValue('Curitiba');
  await expect(page.getByLabel('Data', { exact: true })).toHaveValue('20112026');
  await page.getByRole('button', { name: 'Carregar' }).click();
  await expect(page.locator('.lap-best')).toHaveCount(1);
  await expect(page.getByRole('note')).toHaveCount(0); // not the demo

  // 'Meus dados': the buyer revokes the device's token (lost or stolen); it stops uploading.
  await page.goto('/enroll');
  const mine = page.getByRole('listitem').filter({ hasText: deviceId });
  await expect(mine).toContainText('envia voltas com o token gravado nele');
  page.once('dialog', (dialog) => void dialog.accept());
  await mine.getByRole('button', { name: 'Revogar token' }).click();
  await expect(page.getByText(`Token do hardware ${deviceId} revogado.`)).toBeVisible();
  await expect(mine).toContainText('sem token');
  expect(() => simulate(soldToken, '21112026')).toThrow();

  // A rider typing an admin address is sent to '/' (and from there home); the API says 403.
  for (const path of ['/adm', '/seller-adm', '/hardware', '/seller']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/user$/);
  }
  const res = await page.request.get('/api/admin/users');
  expect(res.status()).toBe(403);
});

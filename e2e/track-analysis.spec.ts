import { E2E_ADMIN_EMAIL } from '../playwright.config';
import { expect, heavyGet, scrollToSection, signIn, test } from './fixtures';

test('where the time goes: corner markers, the corner table and three cards; a card zooms the charts and the map', async ({
  page,
}) => {
  await signIn(page, { email: 'piloto@voltas.local' });
  await page.goto('/analytics?hw=000000000042&pista=Interlagos&data=15112026');
  // Below the map and the charts on a phone: drawn as the rider scrolls near it, its room kept until then.
  const map = page.getByTestId('track-map');
  await expect(map).toHaveAttribute('data-corners', /^[1-9]\d*$/); // the track analysis has arrived
  const where = page.getByRole('region', { name: 'Onde você perde tempo', exact: true });
  await expect(where).toHaveAttribute('aria-busy', 'true');
  await expect(page.getByTestId('loss-card')).toHaveCount(0);
  const room = (await where.boundingBox())!.height;
  await scrollToSection(page, 'Onde você perde tempo');
  const drawn = (await where.boundingBox())!.height;
  expect(Math.abs(drawn - room) / drawn, `room kept ${room} px, drawn ${drawn} px`).toBeLessThan(0.25);
  const corners = Number(await map.getAttribute('data-corners'));
  const table = page.getByTestId('corner-table');
  await expect(table.locator('tbody tr')).toHaveCount(corners);
  await expect(page.getByTestId('ideal-lap')).toHaveText(/^\d{2}:\d{2}\.\d{3}$/);

  // The best lap against the ideal lap (decision 029): three cards that say where, and which lap did better there.
  const cards = page.getByTestId('loss-card');
  await expect(cards).toHaveCount(3);
  await expect(cards.first()).toContainText(/^(T\d+|Reta)[^:]*: \+\d,\d{2} s/);
  await expect(cards.first()).toContainText(/sua melhor passagem/);

  // Tapping a card zooms the charts and the map to that piece of the lap; again shows it all.
  const speed = page.getByTestId('chart-speed');
  await speed.scrollIntoViewIfNeeded(); // drawn when scrolled to
  await expect(speed).toHaveAttribute('data-ready', 'true');
  await expect(speed).toHaveAttribute('data-x-range', '');
  await cards.first().click();
  await expect(cards.first()).toHaveAttribute('aria-pressed', 'true');
  await expect(map).toBeInViewport(); // what the card changes comes into view (issue 60)
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
  await expect(page.getByTestId('total-delta')).toHaveText(/No total: [+−]\d,\d{3} s|Escolha duas voltas/);
});

test('by keyboard: Tab from the colour choice above reaches the pickers of "Onde você perde tempo"', async ({
  page,
}) => {
  await signIn(page, { email: 'piloto@voltas.local' });
  await page.goto('/analytics?hw=000000000042&pista=Interlagos&data=15112026');
  // The last control above the section (the map and the lap charts between them have none).
  const colour = page.getByRole('radio', { name: 'velocidade' });
  await expect(colour).toBeChecked();
  await colour.focus();
  // Not scrolled: the section is still its place-holder, which Tab lands on and brings near.
  await expect(page.getByRole('heading', { name: 'Onde você perde tempo' })).toHaveCount(0);
  await page.keyboard.press('Tab');
  const picker = page.getByRole('combobox', { name: 'Volta estudada' });
  await expect(page.getByRole('heading', { name: 'Onde você perde tempo' })).toBeVisible();
  for (let tab = 0; tab < 4 && !(await picker.evaluate((e) => e === document.activeElement)); tab++)
    await page.keyboard.press('Tab');
  await expect(picker).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('combobox', { name: 'Comparar com' })).toBeFocused();
});

test('the laps screen shows the ideal lap, the theoretical best explained under it', async ({ page }) => {
  await signIn(page, { email: 'piloto@voltas.local' });
  await page.goto('/laps?hw=000000000042&pista=Interlagos&data=15112026');
  await expect(page.getByTestId('ideal-lap')).toHaveText(/^\d{2}:\d{2}\.\d{3}$/);
  // One headline: the sectors' sum is no figure of its own, but a line under the ideal lap saying what it is.
  const ideal = page.locator('.summary-ideal');
  await expect(ideal.locator('dd.muted')).toHaveText(
    /^Volta teórica \d{2}:\d{2}\.\d{3}: a soma dos melhores setores\./,
  );
  await expect(page.locator('.summary dt', { hasText: 'Volta teórica' })).toHaveCount(0);
  // The GPS's own time under the device's only where the two differ by more than 0.05 s, with why.
  await expect(page.getByTestId('lap-row').first()).toBeVisible();
  for (const gps of await page.getByTestId('gps-time').all())
    await expect(gps).toHaveText(/^GPS \d{2}:\d{2}\.\d{3} ≠ difere do hardware em [+−]\d,\d{3} s /);
});

test('an admin drags a track’s start/finish gate on its map and saves it; the laps are timed there', async ({
  page,
}) => {
  await signIn(page, { email: E2E_ADMIN_EMAIL, name: 'Chefe' });
  const analysis = '/api/devices/000000000001/sessions/Interlagos/08112026/track-analysis';
  const before = await (await heavyGet(page, analysis)).json();
  await page.goto('/pistas');
  await expect(page.getByRole('heading', { name: 'Pistas' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: before.track.name });
  await row.getByRole('button', { name: 'Ajustar a largada' }).click();
  const editor = page.getByTestId('gate-editor');
  await expect(editor).toBeVisible();
  const save = page.getByRole('button', { name: 'Salvar a linha' });
  await expect(save).toBeDisabled();

  // Drag one end of the gate with the mouse (its place on the canvas is in data-handles), then
  // nudge the whole gate with the keyboard.
  // On screen first: the mouse works in the viewport (a longer tracks list pushes the editor down).
  await editor.scrollIntoViewIfNeeded();
  const box = (await editor.boundingBox())!;
  const [ax, ay] = (await editor.getAttribute('data-handles'))!.split(',').map(Number);
  await page.mouse.move(box.x + ax!, box.y + ay!);
  await page.mouse.down();
  await page.mouse.move(box.x + ax! + 15, box.y + ay! + 10, { steps: 5 });
  await page.mouse.up();
  await expect(save).toBeEnabled();
  const dragged = await editor.getAttribute('data-handles');
  expect(dragged!.split(',').map(Number)[0]).toBeCloseTo(ax! + 15, -1);
  await editor.focus();
  for (let k = 0; k < 30; k++) await page.keyboard.press('ArrowUp');
  await page.keyboard.press(']');
  await expect(save).toBeEnabled();
  await page.mouse.move(box.x + 1, box.y + 1);
  await save.click();
  await expect(page.getByRole('status').filter({ hasText: 'Linha salva' })).toBeVisible();

  const after = await (await heavyGet(page, analysis)).json();
  expect(after.track.version).toBe(before.track.version + 1);
  expect(after.track.gate).not.toEqual(before.track.gate);

  // A sector gate the same way: its sector times follow.
  await page.getByRole('radio', { name: 'Setor 2' }).check();
  await editor.focus();
  for (let k = 0; k < 10; k++) await page.keyboard.press('ArrowRight');
  await save.click();
  await expect(page.getByRole('status').filter({ hasText: 'Linha salva' })).toBeVisible();
  const sectors = await (await heavyGet(page, analysis)).json();
  expect(sectors.track.version).toBe(before.track.version + 2);
  expect(sectors.track.sectors).not.toEqual(after.track.sectors);
  await page.goto('/auditoria');
  await expect(page.getByRole('cell', { name: 'linha de largada da pista movida' }).first()).toBeVisible();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true });

  test('an admin draws a track’s pit lane with the keyboard; a device’s track pack carries it, then not', async ({
    page,
    baseURL,
    playwright,
  }) => {
    await signIn(page, { email: E2E_ADMIN_EMAIL, name: 'Chefe' });
    const analysis = '/api/devices/000000000001/sessions/Interlagos/08112026/track-analysis';
    const { track } = (await (await heavyGet(page, analysis)).json()) as {
      track: { id: string; name: string; gate: { a: { lat: number; lon: number } } };
    };
    // A device of its own, asking for the circuits around the start/finish line as firmware does.
    const id = String(100_000_000_000 + Math.floor(Math.random() * 800_000_000_000));
    const registered = await page.request.post('/api/admin/devices', { data: { id } });
    expect(registered.status()).toBeLessThan(300);
    const { token } = (await registered.json()) as { token: string };
    const device = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { authorization: `Bearer ${token}` },
    });
    const fetchPack = async () => {
      const res = await device.get(`/api/device/v1/tracks?lat=${track.gate.a.lat}&lon=${track.gate.a.lon}&radiusKm=5`);
      expect(res.status()).toBe(200);
      const body = (await res.json()) as { tracks: { id: string; pitLane: unknown }[] };
      return { etag: res.headers().etag, lane: body.tracks.find((t) => t.id === track.id)?.pitLane };
    };
    const before = await fetchPack();
    expect(before.lane).toBeNull();

    await page.goto('/pistas');
    await page
      .getByRole('row')
      .filter({ hasText: track.name })
      .getByRole('button', { name: 'Ajustar a largada' })
      .click();
    await expect(page.getByText('Box não desenhado')).toBeVisible();
    // All by keyboard: the button, the line's place (arrows: 1 m, [ ]: 2°), the other line, saving.
    const draw = page.getByRole('button', { name: 'Desenhar o box' });
    await draw.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('radio', { name: 'Entrada do box' })).toBeChecked();
    const editor = page.getByTestId('gate-editor');
    await editor.focus();
    for (let k = 0; k < 6; k++) await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('[');
    await page.getByRole('radio', { name: 'Saída do box' }).focus();
    await page.keyboard.press('Space');
    await expect(page.getByRole('radio', { name: 'Saída do box' })).toBeChecked();
    await editor.focus();
    for (let k = 0; k < 6; k++) await page.keyboard.press('ArrowUp');
    await page.getByRole('button', { name: 'Salvar o box' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: 'Box salvo' })).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, 'the page fits the 360 px phone').toBeLessThanOrEqual(360);

    const drawn = await fetchPack();
    expect(drawn.etag).not.toBe(before.etag);
    const lane = drawn.lane as { entry: { a: { lat: number } }; exit: { a: { lat: number } } };
    expect(lane.entry.a.lat).toEqual(expect.any(Number));
    expect(lane.exit.a.lat).not.toBe(lane.entry.a.lat);
    const detail = await page.request.get(`/api/admin/tracks/${encodeURIComponent(track.id)}`);
    expect(((await detail.json()) as { pitLane: unknown }).pitLane).toEqual(drawn.lane);

    // One end dragged onto the other: a line of one point is refused, said in Portuguese, nothing kept.
    await page.getByRole('radio', { name: 'Saída do box' }).check();
    await editor.scrollIntoViewIfNeeded();
    const box = (await editor.boundingBox())!;
    const [ax, ay, bx, by] = (await editor.getAttribute('data-handles'))!.split(',').map(Number);
    await page.mouse.move(box.x + bx!, box.y + by!);
    await page.mouse.down();
    await page.mouse.move(box.x + ax!, box.y + ay!, { steps: 5 });
    await page.mouse.up();
    await page.getByRole('button', { name: 'Salvar o box' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'A linha deve ter de 2 a 200 m de largura.' }),
    ).toBeVisible();
    expect((await fetchPack()).lane).toEqual(drawn.lane);
    await page.getByRole('button', { name: 'Desfazer' }).click();

    // Cleared: gone from the pack, whose ETag is what it was before the drawing.
    await page.getByRole('button', { name: 'Apagar o box' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Box apagado' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Desenhar o box' })).toBeVisible();
    const cleared = await fetchPack();
    expect(cleared.lane).toBeNull();
    expect(cleared.etag).toBe(before.etag);
    await device.dispose();
  });

  test('an admin draws the pit lane of a catalogue circuit nobody has ridden yet; the track pack carries it', async ({
    page,
    baseURL,
    playwright,
  }) => {
    await signIn(page, { email: E2E_ADMIN_EMAIL, name: 'Chefe' });
    const found = (await (await page.request.get('/api/tracks/catalogue?q=goiania')).json()) as {
      tracks: { id: string; name: string; startFinish: { lat: number; lon: number } }[];
    };
    const circuit = found.tracks[0]!;
    const id = `catalogue:${circuit.id}`;
    const registered = await page.request.post('/api/admin/devices', {
      data: { id: String(100_000_000_000 + Math.floor(Math.random() * 800_000_000_000)) },
    });
    const { token } = (await registered.json()) as { token: string };
    const device = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { authorization: `Bearer ${token}` },
    });
    const laneInPack = async () => {
      const { lat, lon } = circuit.startFinish;
      const res = await device.get(`/api/device/v1/tracks?lat=${lat}&lon=${lon}&radiusKm=5`);
      const body = (await res.json()) as { tracks: { id: string; pitLane: unknown }[] };
      return body.tracks.find((t) => t.id === id)?.pitLane;
    };
    expect(await laneInPack()).toBeNull();

    await page.goto('/pistas');
    await page.getByLabel('Nome do circuito').fill('goiania');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await page.getByRole('button', { name: `Abrir ${circuit.name}` }).click();
    // Its gates are the catalogue's: only the pit lane is there to draw.
    await expect(page.getByText('Box não desenhado')).toBeVisible();
    await expect(page.getByRole('radio', { name: 'Largada/chegada' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Desenhar o box' }).click();
    await page.getByTestId('gate-editor').focus();
    for (let k = 0; k < 4; k++) await page.keyboard.press('ArrowDown');
    await page.getByRole('button', { name: 'Salvar o box' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Box salvo' })).toBeVisible();
    expect(await laneInPack()).toMatchObject({ entry: { a: { lat: expect.any(Number) } } });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    await page.getByRole('button', { name: 'Apagar o box' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Box apagado' })).toBeVisible();
    expect(await laneInPack()).toBeNull();
    await device.dispose();
  });
});

test('a rider says which catalogue circuit a session was ridden on: searched by name, the laps timed there', async ({
  page,
}) => {
  await signIn(page, { email: 'piloto@voltas.local' });
  await page.goto('/analytics?hw=000000000042&pista=Interlagos&data=15112026');
  await scrollToSection(page, 'Onde você perde tempo');
  await expect(page.getByText('Pista: Interlagos')).toBeVisible();
  await page.getByText('Não é esta pista? Escolha no catálogo').click();
  const search = page.getByLabel('Nome do circuito');
  await search.fill('x');
  await expect(page.getByText('Digite ao menos 2 letras.')).toBeVisible();
  await search.fill('circuito que não existe');
  await page.getByRole('button', { name: 'Buscar' }).click();
  await expect(page.getByText('Nenhum circuito com esse nome no catálogo.')).toBeVisible();
  await search.fill('interlagos');
  await page.getByRole('button', { name: 'Buscar' }).click();
  await page.getByRole('button', { name: 'Usar Autódromo de Interlagos' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Pista trocada' })).toBeVisible();
  await expect(page.getByText('Pista: Autódromo de Interlagos')).toBeVisible();
  await expect(page.getByText('pista do catálogo')).toBeVisible();
  await expect(page.getByTestId('loss-card')).toHaveCount(3);
});

import { parseGpsSix } from '#core/formats/gps-six.ts';
import { writeGpx } from '#core/imports/test-support/writers.ts';
import { generateSession } from '#core/sim/session-generator.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { expect, holdAnswers, type Page, signIn, signOut, test, uniqueEmail } from './fixtures';

// A rider's history and a friend: three track days at Interlagos, the progress chart with the
// record in green; a lap shared, opened signed out, laid over a friend's own lap; then revoked.
test.setTimeout(120_000);
const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;
const gpxOf = (seed: number, skill: number, d: number) =>
  writeGpx(
    parseGpsSix(generateSession(interlagos, { seed, heats: 1, lapsPerHeat: [4, 4], gpsNoise: 0.2, skill }).gpsSix)
      .value,
    { y: 2026, m: 10, d },
  );

interface Imported {
  session: { device: string; track: string; date: string };
  laps: { heat: string; number: number; kind: string }[];
}

async function importGpx(page: Page, name: string, body: string): Promise<Imported> {
  const res = await page.request.post(`/api/imports?filename=${name}`, {
    data: body,
    headers: { 'content-type': 'application/gpx+xml' },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as Imported;
}

/** A share link to a session (or one of its laps), as the path a friend opens. */
async function shareLink(page: Page, what: Imported['session'] & { lap?: string }): Promise<string> {
  const made = await page.request.post('/api/shares', { data: what });
  expect(made.status()).toBe(201);
  return new URL(((await made.json()) as { url: string }).url).pathname;
}

const GREEN = 'rgb(105, 240, 174)';

test('progress over three days with the record in green; a shared lap opened signed out, overlaid by a friend, then revoked', async ({
  page,
  browser,
}) => {
  await signIn(page, { email: uniqueEmail('historia') });
  // Three days, faster each time (the last is the record).
  await importGpx(page, 'dia1.gpx', gpxOf(71, 0.88, 4));
  await importGpx(page, 'dia2.gpx', gpxOf(72, 0.92, 11));
  await importGpx(page, 'dia3.gpx', gpxOf(73, 0.96, 18));

  // Home's first block: the latest sessions, the record.
  await page.goto('/user');
  await expect(page.getByTestId('home-my-sessions')).toContainText('Interlagos, 18/10/2026');
  await expect(page.getByTestId('home-my-sessions')).toContainText('Seus recordes');

  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Evolução' }).click();
  await expect(page.getByRole('heading', { name: 'Evolução em Interlagos', level: 1 })).toBeVisible();
  await expect(page.getByTestId('progress-chart').locator('canvas')).toBeVisible();
  const rows = page.getByTestId('progress-table').locator('tbody tr');
  await expect(rows).toHaveCount(3);
  // One column per figure, the day once; the table's title at its left, where a phone shows it.
  await expect(page.getByTestId('progress-table').locator('thead th')).toHaveText([
    'Dia',
    'Melhor volta',
    'Volta ideal',
    'Consistência',
    'Voltas lançadas',
  ]);
  const table = (await page.getByTestId('progress-table').boundingBox())!;
  expect((await page.getByTestId('progress-table').locator('caption').boundingBox())!.x).toBeLessThan(table.x + 20);
  await expect(page.getByTestId('progress-spread')).toBeVisible();
  await expect(rows.nth(2)).toContainText('Recorde pessoal');
  await expect(rows.nth(2).locator('td.time-pb')).toHaveCSS('color', GREEN);
  await expect(page.getByTestId('corner-verdicts')).toContainText('Curva que mais melhorou: T');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // The record's session: its lap in green on the laps screen.
  await rows.nth(2).getByRole('link', { name: '18/10/2026' }).click();
  await expect(page).toHaveURL(/\/laps\?hw=imp[0-9a-f]{12}&pista=Interlagos&data=18102026/);
  const record = page.getByTestId('lap-row').filter({ has: page.getByTestId('personal-best') });
  await expect(record).toHaveCount(1);
  await expect(record.locator('.lap-time')).toHaveCSS('color', GREEN);

  // Share one lap, named, through the phone's share sheet (this desktop Chromium has none: the
  // page's own navigator.share stands in for the system's sheet and records what it was handed).
  await page.evaluate(() => {
    (window as unknown as { sent: ShareData[] }).sent = [];
    navigator.share = (data?: ShareData) => {
      (window as unknown as { sent: ShareData[] }).sent.push(data ?? {});
      return Promise.resolve();
    };
  });
  // On a phone the panel opens where the eye is: whole on screen, its first choice focused (issue 60).
  await page.setViewportSize({ width: 360, height: 640 });
  await page.getByRole('button', { name: 'Compartilhar' }).click();
  await expect(page.getByLabel('O que compartilhar')).toBeFocused();
  await expect(page.getByRole('button', { name: 'Criar link' })).toBeInViewport();
  await page.setViewportSize({ width: 390, height: 800 });
  await page.getByLabel('O que compartilhar').selectOption({ index: 2 });
  await page.getByLabel('Nome do link (opcional)').fill('Minha melhor em Interlagos');
  await page.getByRole('button', { name: 'Criar link' }).click();
  const url = await page.getByTestId('share-url').inputValue();
  expect(url).toMatch(/\/v\/[A-Za-z0-9_-]{43}$/);
  const path = new URL(url).pathname;
  await page.getByRole('button', { name: 'Enviar…' }).click();
  expect(await page.evaluate(() => (window as unknown as { sent: ShareData[] }).sent)).toEqual([
    { title: 'Minha melhor em Interlagos', url },
  ]);

  // Opened signed out: the lap, its chart and line; no cookie.
  const stranger = await browser.newContext();
  const strangerPage = await stranger.newPage();
  await strangerPage.goto(path);
  await expect(strangerPage.getByTestId('shared-view')).toBeVisible();
  await expect(strangerPage.getByTestId('shared-name')).toHaveText('Minha melhor em Interlagos');
  await expect(strangerPage.getByTestId('shared-top-speed')).toHaveText(/^\d{3},\d km\/h$/);
  await expect(strangerPage.getByTestId('shared-laps').getByRole('columnheader', { name: 'S1' })).toBeVisible();
  await expect(strangerPage.getByTestId('shared-laps').locator('tbody tr')).toHaveCount(1);
  await expect(strangerPage.getByTestId('shared-speed').locator('canvas')).toBeVisible();
  await expect(strangerPage.getByRole('img', { name: /Traçado da volta/ })).toBeVisible();
  await expect(
    strangerPage.getByRole('link', { name: 'Entre para comparar com as suas voltas nesta pista.' }),
  ).toBeVisible();
  expect(await stranger.cookies()).toEqual([]);

  // A friend with a day of their own there lays the shared lap over one of theirs.
  const friend = await browser.newContext();
  const friendPage = await friend.newPage();
  await signIn(friendPage, { email: uniqueEmail('amigo') });
  await importGpx(friendPage, 'amigo.gpx', gpxOf(74, 0.9, 25));
  await friendPage.goto(path);
  const theirs = friendPage.getByLabel('Sua sessão');
  await expect(theirs.locator('option')).toHaveText(['—', /^Interlagos, 25\/10\/2026/]);
  await theirs.selectOption({ index: 1 });
  const lap = friendPage.getByLabel('Sua volta');
  await expect(lap.locator('option').nth(2)).toBeAttached();
  await lap.selectOption({ index: 2 });
  await friendPage.getByRole('link', { name: 'Comparar' }).click();
  await expect(friendPage.getByRole('heading', { name: 'Comparar voltas', level: 1 })).toBeVisible();
  await expect(friendPage.getByTestId('comparison')).toContainText('(link compartilhado)');
  await expect(friendPage.getByTestId('compare-speed').locator('canvas')).toBeVisible();
  await expect(friendPage.getByTestId('compare-corners')).toBeVisible();
  await expect(friendPage.getByTestId('loss-cards')).toBeVisible();

  // The rider revokes the link: it stops working.
  await page.goto('/user');
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Links compartilhados' }).click();
  await expect(page.getByTestId('share-item')).toHaveCount(1);
  await expect(page.getByTestId('share-name')).toHaveText('Minha melhor em Interlagos');
  // The link can be copied again from here.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByTestId('share-item').getByRole('button', { name: 'Copiar link' }).click();
  await expect(page.getByTestId('share-item').getByText('Link copiado.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Revogar' }).click();
  await expect(page.getByText('Link revogado: ele não abre mais nada.')).toBeVisible();
  await expect(page.getByTestId('share-item')).toHaveCount(0);
  await strangerPage.reload();
  await expect(strangerPage.getByTestId('shared-gone')).toBeVisible();
  await stranger.close();
  await friend.close();
  await signOut(page);
});

test('"comparar com meu recorde" from the laps screen', async ({ page }) => {
  await signIn(page, { email: uniqueEmail('recorde') });
  await importGpx(page, 'lento.gpx', gpxOf(75, 0.88, 5));
  await importGpx(page, 'rapido.gpx', gpxOf(76, 0.97, 12));
  await page.goto('/sessoes');
  await page.getByTestId('my-session').filter({ hasText: '05/10/2026' }).getByRole('link', { name: 'Voltas' }).click();
  await page.getByRole('link', { name: 'Comparar com meu recorde' }).first().click();
  await expect(page.getByTestId('comparison')).toContainText('Recorde pessoal');
  await expect(page.getByTestId('compare-delta')).toHaveText(/^\+/);

  // A faster day arrives while the rider looks: the new record is announced.
  const connected = page.waitForResponse((r) => r.url().endsWith('/api/events'));
  await page.goto('/sessoes');
  await connected;
  await importGpx(page, 'recorde.gpx', gpxOf(77, 1.02, 19));
  await expect(page.getByTestId('new-record')).toContainText(/Novo recorde pessoal em Interlagos: \d\d:\d\d\.\d{3}/);
  await page.getByRole('button', { name: 'Fechar aviso' }).click();
  await expect(page.getByTestId('new-record')).toHaveText('');
  await signOut(page);
});

test('a friend opens a session link: its first screen comes without the app’s code, which a lap’s click brings', async ({
  page,
  browser,
}) => {
  await signIn(page, { email: uniqueEmail('primeira-tela') });
  const { session } = await importGpx(page, 'dia.gpx', gpxOf(74, 0.9, 25));
  const path = await shareLink(page, session);

  const stranger = await browser.newContext();
  const friend = await stranger.newPage();
  const scripts: string[] = [];
  friend.on('request', (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname));
  await friend.goto(path);
  await expect(friend.getByTestId('shared-laps').locator('tbody tr').first()).toBeVisible();
  await expect(friend.getByRole('link', { name: 'Entre para comparar com as suas voltas nesta pista.' })).toBeVisible();
  const app = await friend.locator('#root').getAttribute('data-app');
  expect(app).toMatch(/^\/assets\/index-.+\.js$/);
  await friend.waitForLoadState('networkidle');
  expect(scripts).not.toContain(app);

  // The click that brings the app is not lost: the lap's charts and line come.
  const lap = friend.getByTestId('shared-laps').getByRole('button').nth(1);
  const name = (await lap.getAttribute('aria-label'))!;
  await lap.click();
  await expect(friend.getByTestId('shared-speed').locator('canvas')).toBeVisible();
  await expect(friend.getByRole('img', { name: `Traçado da volta ${name.split(' ')[3]}` })).toBeVisible();
  await expect(friend.getByRole('button', { name, exact: true })).toHaveAttribute('aria-pressed', 'true');
  expect(scripts).toContain(app);
  // The menu, too, is the app's.
  await friend.getByRole('button', { name: 'Menu' }).click();
  await expect(friend.getByRole('navigation', { name: 'Menu' })).toBeVisible();
  await stranger.close();
});

test('a friend opens a lap’s link on a phone: its charts come in below the laps, and nothing on screen moves', async ({
  page,
  browser,
}) => {
  await signIn(page, { email: uniqueEmail('link-da-volta') });
  const { session, laps } = await importGpx(page, 'dia.gpx', gpxOf(75, 0.9, 26));
  const flying = laps.find((l) => l.kind === 'flying')!;
  const path = await shareLink(page, { ...session, lap: `${flying.heat}${flying.number}` });

  const stranger = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
  const friend = await stranger.newPage();
  // Every layout shift of the page, as the browser reports it (none of them after an input here).
  await friend.addInitScript(() => {
    const w = window as unknown as { shifts: number };
    w.shifts = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.shifts += (e as unknown as { value: number }).value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
  // The lap's figures held back until the app has drawn the page and knows the visitor is signed out.
  const release = await holdAnswers(friend, '**/api/shared/*/lap*');
  const me = friend.waitForResponse((r) => new URL(r.url()).pathname === '/api/me');
  await friend.goto(path);
  await me;
  await expect(friend.locator('[data-first-screen]')).toHaveCount(0);
  await expect(friend.getByTestId('shared-laps').locator('tbody tr')).toHaveCount(1);
  await friend.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const invitation = friend.getByRole('link', { name: 'Entre para comparar com as suas voltas nesta pista.' });
  await expect(invitation).toHaveCount(0);
  release();
  await expect(friend.getByTestId('shared-speed').locator('canvas')).toBeVisible();
  await expect(invitation).toBeAttached();
  // Below the charts, where it stays.
  const chartBottom = (await friend.getByTestId('shared-speed').boundingBox())!;
  expect((await invitation.boundingBox())!.y).toBeGreaterThan(chartBottom.y + chartBottom.height);
  await friend.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  expect(await friend.evaluate(() => (window as unknown as { shifts: number }).shifts)).toBeLessThan(0.005);

  // A lap that cannot be read says so, and the rest of the page stays.
  const unreadable = await stranger.newPage();
  await unreadable.route('**/api/shared/*/lap*', (route) =>
    route.fulfill({
      status: 404,
      json: { code: 'storage/object-not-found', message: 'Object does not exist', requestId: 'req-1' },
    }),
  );
  await unreadable.goto(path);
  await expect(unreadable.getByRole('alert')).toContainText('Não encontramos o que você procurou.');
  await expect(
    unreadable.getByRole('link', { name: 'Entre para comparar com as suas voltas nesta pista.' }),
  ).toBeVisible();
  await expect(unreadable.getByTestId('shared-laps').locator('tbody tr')).toHaveCount(1);
  await stranger.close();
});

test('a signed-in friend whose own sessions cannot be read is told so beside the shared laps', async ({ page }) => {
  await signIn(page, { email: uniqueEmail('sem-lista') });
  const { session } = await importGpx(page, 'dia.gpx', gpxOf(76, 0.9, 27));
  const path = await shareLink(page, session);
  await page.route('**/api/sessions?track=*', (route) =>
    route.fulfill({
      status: 404,
      json: { code: 'storage/object-not-found', message: 'Object does not exist', requestId: 'req-4' },
    }),
  );
  await page.goto(path);
  const panel = page.getByRole('region', { name: 'Comparar com minhas voltas' });
  await expect(panel.getByRole('alert')).toContainText('Não encontramos o que você procurou.');
});

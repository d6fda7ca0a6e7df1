import { parseGpsSix } from '#core/formats/gps-six.ts';
import { writeGpx } from '#core/imports/test-support/writers.ts';
import { generateSession } from '#core/sim/session-generator.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { expect, type Page, scrollToSection, signIn, test, uniqueEmail } from './fixtures';

// Issue 35, finding 7: the first screens answer the rider's question without them choosing anything.

test('"Onde você perde tempo" opens on the best lap against the ideal lap, with three cards that say something', async ({
  page,
}) => {
  await signIn(page, { email: uniqueEmail('primeira') });
  await page.setViewportSize({ width: 360, height: 780 });
  // A demo session whose best lap is its last flying lap: it used to open on that lap against itself.
  await page.goto('/analytics?hw=000000000001&pista=Monza&data=30082026');
  await scrollToSection(page, 'Onde você perde tempo');
  const cards = page.getByTestId('loss-card');
  await expect(cards).toHaveCount(3);
  await expect(page.getByTestId('study-explain')).toContainText('contra a volta ideal');
  await expect(page.getByRole('combobox', { name: 'Comparar com' })).toHaveValue('ideal');
  for (const card of await cards.all()) await expect(card).toContainText(/^T\d+: \+\d,(?!00)\d{2} s/);
  await expect(page.getByTestId('total-delta')).toHaveText(/^No total: \+\d,\d{3} s$/);
  await expect(page.getByTestId('total-delta')).not.toHaveText('No total: +0,000 s');

  // On a 360 px phone nothing scrolls sideways; by keyboard, a card zooms to its corner.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await cards.first().focus();
  await page.keyboard.press('Enter');
  await expect(cards.first()).toHaveAttribute('aria-pressed', 'true');
});

const menuLink = async (page: Page, name: string) => {
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name }).click();
};

// The demo rider has sessions at two tracks, the latest of them with the record.
test("'Comparar voltas' from the menu opens on the rider's latest session, nothing to choose", async ({ page }) => {
  await signIn(page, { email: 'piloto@voltas.local' });
  await menuLink(page, 'Comparar voltas');
  await expect(page.getByRole('heading', { name: 'Comparar voltas', level: 1 })).toBeVisible();
  await expect(page.getByTestId('comparison')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('compare-speed').locator('canvas').first()).toBeVisible();
  await expect(page.getByTestId('compare-corners')).toBeVisible();
  await expect(page).toHaveURL(/\/comparar\?hw=\d{12}&pista=[^&]+&data=\d{8}&volta=[A-D]\d+&ref=/);
  await expect(page.getByText('Você ainda não tem sessões nesta pista para comparar.')).toHaveCount(0);
});

test("'Evolução' from the menu opens on the rider's latest track, nothing to choose", async ({ page }) => {
  await signIn(page, { email: 'piloto@voltas.local' });
  await menuLink(page, 'Evolução');
  await expect(page.getByRole('heading', { name: /^Evolução em /, level: 1 })).toBeVisible();
  // Its days are analysed on the first visit (a few seconds on a fresh server). The demo rider has
  // one day there: its chart of one point once froze the page for seconds a chart (uplot-chart.tsx).
  await expect(page.getByTestId('progress-chart').locator('canvas').first()).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('progress-table').locator('tbody tr').first()).toBeVisible();
});

test('an import is named "Importados", never by its collection id; Carregar says why it waits', async ({ page }) => {
  await signIn(page, { email: uniqueEmail('importados') });
  const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;
  const gpx = writeGpx(
    parseGpsSix(generateSession(interlagos, { seed: 35, heats: 1, lapsPerHeat: [3, 3], gpsNoise: 0.2 }).gpsSix).value,
    {
      y: 2026,
      m: 9,
      d: 7,
    },
  );
  const res = await page.request.post('/api/imports?filename=sabado.gpx', {
    data: gpx,
    headers: { 'content-type': 'application/gpx+xml' },
  });
  expect(res.status()).toBe(201);
  const { session } = (await res.json()) as { session: { device: string; track: string; date: string } };
  expect(session.device).toMatch(/^imp[0-9a-f]{12}$/);

  await page.goto('/user');
  await expect(page.getByTestId('latest-session')).toContainText('Interlagos — 07/09/2026 · Importados');
  await expect(page.getByTestId('latest-session')).not.toContainText(session.device);
  // A rider with no device: their sessions and the import first, the device's guide folded below them.
  await expect(page.getByTestId('home-import')).toBeVisible();
  const guide = page.getByTestId('usage-guide');
  await expect(guide).not.toHaveAttribute('open');
  await expect(guide.getByRole('heading', { name: 'Guia de uso' })).toBeVisible();
  // (A closed <details> keeps its content laid out but unrendered: the browser's own check says so.)
  const install = guide.locator('h3', { hasText: 'Instalação' });
  expect(await install.evaluate((e) => e.checkVisibility())).toBe(false);
  const [sessionsBox, guideBox] = [await page.getByTestId('home-my-sessions').boundingBox(), await guide.boundingBox()];
  expect(guideBox!.y).toBeGreaterThan(sessionsBox!.y);
  await guide.locator('summary').click();
  await expect(guide).toHaveAttribute('open');
  expect(await install.evaluate((e) => e.checkVisibility())).toBe(true);

  await page.goto(`/analytics?hw=${session.device}&pista=${session.track}&data=${session.date}`);
  const title = page.getByRole('heading', { name: /Seleção de Laps/, level: 1 });
  await expect(title).toHaveText('Seleção de Laps Importados');
  await expect(page.getByTestId('top-speed')).toBeVisible();
  // The session shown is the one selected: 'Carregar' would do nothing, and says so.
  await expect(page.getByRole('button', { name: 'Carregar' })).toBeDisabled();
  await expect(page.getByText('Esta sessão já está aberta abaixo.')).toBeVisible();
  await expect(page.locator('body')).not.toContainText(session.device);
});

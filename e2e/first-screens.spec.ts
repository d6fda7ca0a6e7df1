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

// Issue 60, "The answer first": a phone's first screen (360 × 780) holds the best lap, the ideal lap
// and the tips; the first lap row starts on it and ends within a scroll budget of 100 px, about one
// row of the table (81 px): the tips arrive with the GPS file and their English sentences run longest.
const ANSWER_SESSION = '/analytics?hw=000000000042&pista=Interlagos&data=15112026';
for (const [locale, lang] of [
  ['pt-BR', 'pt-BR'],
  ['en-US', 'en'],
  ['es-ES', 'es'],
] as const) {
  test.describe(`in ${locale}`, () => {
    test.use({ locale });
    for (const viewport of [
      { width: 360, height: 780 },
      { width: 1366, height: 768 },
    ]) {
      test(`the analytics page leads with the best and ideal laps, the tips and the laps at ${viewport.width} px`, async ({
        page,
      }) => {
        await page.setViewportSize(viewport);
        await signIn(page, { email: 'piloto@voltas.local' });
        await page.goto(ANSWER_SESSION);
        await expect(page.locator('html')).toHaveAttribute('lang', lang);
        await expect(page.getByTestId('answer-best')).toHaveText(/^\d{2}:\d{2}\.\d{3}$/);
        await expect(page.getByTestId('answer-ideal')).toHaveText(/^\d{2}:\d{2}\.\d{3}$/, { timeout: 30_000 });
        await expect(page.getByTestId('coaching-tip').first()).toBeVisible({ timeout: 30_000 });
        const row = page.getByTestId('figures-row').first();
        await expect(row).toBeAttached();
        await page.evaluate(() => window.scrollTo(0, 0));
        const bottom = async (part: ReturnType<typeof page.getByTestId>) => {
          const box = (await part.boundingBox())!;
          return box.y + box.height;
        };
        // The first screen, unscrolled, at either width (a desk's holds the first lap whole).
        const screen = viewport.height;
        expect(await bottom(page.getByTestId('answer-best')), 'best lap').toBeLessThan(screen);
        expect(await bottom(page.getByTestId('answer-ideal')), 'ideal lap').toBeLessThan(screen);
        expect(await bottom(page.getByTestId('coaching-tips')), 'tips').toBeLessThan(screen);
        expect((await row.boundingBox())!.y, 'first lap starts').toBeLessThan(screen);
        expect(await bottom(row), 'first lap ends').toBeLessThan(screen + (viewport.width === 360 ? 100 : 0));
        // Top speed, the sample rate and the exports come after the laps, and the map after the tips.
        const rowBox = (await row.boundingBox())!;
        expect((await page.getByTestId('analysis-summary').boundingBox())!.y).toBeGreaterThan(rowBox.y);
        expect((await page.locator('#analytics-map').boundingBox())!.y).toBeGreaterThan(rowBox.y);
        // A lap time is whole on screen: no column cut, nothing sideways; a desk shows every column.
        const region = row.locator('xpath=ancestor::*[@role="region"][1]');
        const [timeBox, regionBox] = [(await row.locator('.lap-time').boundingBox())!, (await region.boundingBox())!];
        expect(timeBox.x + timeBox.width).toBeLessThanOrEqual(Math.min(regionBox.x + regionBox.width, viewport.width));
        expect(await region.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        if (viewport.width > 640) await expect(region.locator('thead th')).toHaveCount(10);

        // A tip brings the map it changes into view; asked for less motion, at once (in the tap itself).
        await page.emulateMedia({ reducedMotion: 'reduce' });
        await page.evaluate(() => window.scrollTo(0, 0));
        const mapTop = await page.evaluate(() => {
          document.querySelector<HTMLButtonElement>('[data-testid="coaching-tip"]')!.click();
          return document.getElementById('analytics-map')!.getBoundingClientRect().top;
        });
        expect(Math.abs(mapTop)).toBeLessThan(2);
        await expect(page.getByTestId('track-map')).toHaveAttribute('data-focus', /,/);
      });
    }
  });
}

import path from 'node:path';
import { expect, signIn, test, type Page } from './fixtures';

// Issue 62: a session's page leads with at most three tips; each shows its corner on the map, the
// charts and the video; "Where you lose time" holds the corner table (time lost first, sortable),
// speed and lean along the lap and the g-g plot. On a phone and a desk, in the three languages.

const SESSION = '/analytics?hw=000000000042&pista=Interlagos&data=15112026';
const SAMPLE = path.resolve('../shared/data/video/max-heromode.mp4');
test.setTimeout(120_000);

/** Fails the test on a Content-Security-Policy violation or an uncaught error of the page or a worker. */
async function watchForFaults(page: Page): Promise<string[]> {
  const faults: string[] = [];
  page.on('pageerror', (e) => faults.push(`page error: ${e.message}`));
  // A worker's uncaught error reaches its console as "Uncaught …" (the video reader's workers log a
  // caught eval probe under the CSP, which is not one).
  page.on('worker', (w) =>
    w.on('console', (m) => m.type() === 'error' && /^Uncaught/.test(m.text()) && faults.push(`worker: ${m.text()}`)),
  );
  await page.exposeFunction('voltasCspViolation', (v: string) => faults.push(`CSP: ${v}`));
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) => {
      void (window as unknown as { voltasCspViolation: (v: string) => void }).voltasCspViolation(
        `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`,
      );
    }),
  );
  return faults;
}

const LANGUAGES = [
  {
    locale: 'pt-BR',
    record: 'Recorde pessoal nesta pista',
    title: 'Três pontos para trabalhar',
    tip: /^T\d+: .+: cerca de \d,\d s$/,
    where: 'Onde você perde tempo',
    lost: 'Perda (s)',
    corner: 'Curva',
    gg: 'Aderência: esta volta × seu limite',
  },
  {
    locale: 'en-US',
    record: 'Personal best at this track',
    title: 'Three things to work on',
    tip: /^T\d+: .+: about \d\.\d s$/,
    where: 'Where you lose time',
    lost: 'Lost (s)',
    corner: 'Corner',
    gg: 'Grip: this lap against your envelope',
  },
  {
    locale: 'es-ES',
    record: 'Mejor vuelta personal en esta pista',
    title: 'Tres cosas para trabajar',
    tip: /^T\d+: .+: unos \d,\d s$/,
    where: 'Dónde pierdes tiempo',
    lost: 'Pérdida (s)',
    corner: 'Curva',
    gg: 'Agarre: esta vuelta frente a tu límite',
  },
] as const;

const VIEWPORTS = [
  { name: 'phone', viewport: { width: 360, height: 780 } },
  { name: 'desk', viewport: { width: 1280, height: 900 } },
] as const;

for (const l of LANGUAGES)
  for (const v of VIEWPORTS)
    test.describe(`${l.locale} on a ${v.name}`, () => {
      test.use({ locale: l.locale, viewport: v.viewport });

      test('the tips lead the page; a tip shows its corner; the corner table, the profile and the g-g plot', async ({
        page,
      }) => {
        const faults = await watchForFaults(page);
        await signIn(page, { email: 'piloto@voltas.local' });
        await page.goto(SESSION);
        const tips = page.getByTestId('coaching-tips');
        await expect(tips.getByRole('heading', { name: l.title })).toBeVisible({ timeout: 30_000 });
        const cards = page.getByTestId('coaching-tip');
        const count = await cards.count();
        expect(count).toBeGreaterThan(0);
        expect(count).toBeLessThanOrEqual(3);
        for (const text of await cards.locator('span').allTextContents()) expect(text).toMatch(l.tip);
        // Above the map: the page leads with them.
        const map = page.getByTestId('track-map');
        await expect(map).toBeVisible();
        expect((await tips.boundingBox())!.y).toBeLessThan((await map.boundingBox())!.y);

        // A tip: the map and the charts go to its corner.
        await cards.first().click();
        await expect(map).toHaveAttribute('data-focus', /^-?\d+\.\d+,-?\d+\.\d+$/);
        await expect(map).toBeInViewport(); // brought to the eye (issue 60)
        const speed = page.getByTestId('chart-speed');
        await speed.scrollIntoViewIfNeeded();
        await expect(speed).toHaveAttribute('data-x-range', /^-?\d+--?\d+$/);

        // The corner study: time lost first, sortable; the profile and the g-g plot.
        await page.getByRole('heading', { name: l.where }).scrollIntoViewIfNeeded();
        const table = page.getByTestId('corner-study');
        await table.scrollIntoViewIfNeeded();
        const rows = table.getByTestId('corner-study-row');
        expect(await rows.count()).toBeGreaterThan(5);
        const lost = async () =>
          (await rows.locator('td:nth-child(2)').allTextContents()).map((t) =>
            Number(t.split(' ')[0]!.replace('−', '-').replace(',', '.').replace('—', 'NaN')),
          );
        const first = (await lost()).filter((n) => !Number.isNaN(n));
        expect(first).toEqual([...first].sort((a, b) => b - a));
        await table.getByRole('button', { name: new RegExp(`^${l.corner}`) }).click();
        await expect(rows.first().locator('th')).toHaveText('T1');
        await expect(
          table.getByRole('columnheader', { name: new RegExp(l.lost.replace(/[()]/g, '\\$&')) }),
        ).toBeVisible();
        const gg = page.getByTestId('gg-plot');
        await gg.scrollIntoViewIfNeeded();
        await expect(gg.getByText(l.gg)).toBeVisible();
        const canvas = gg.locator('canvas');
        expect((await canvas.boundingBox())!.width).toBeGreaterThan(200);
        // Something drawn: the canvas is not blank.
        expect(
          await canvas.evaluate((c: HTMLCanvasElement) =>
            c
              .getContext('2d')!
              .getImageData(0, 0, c.width, c.height)
              .data.some((x) => x !== 0),
          ),
        ).toBe(true);
        await expect(page.getByTestId('coaching-profile').locator('canvas')).toBeVisible();
        // The reference picker offers the rider's record at the track, by its name in this language.
        await expect(page.locator('.lap-choice select').nth(1).locator('option[value=record]')).toHaveText(l.record);
        // A 360 px phone does not scroll sideways.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(v.viewport.width);
        expect(faults).toEqual([]);
      });
    });

/** Scrolls down to "Onde você perde tempo" (drawn when it comes near the screen). */
async function whereTimeGoes(page: Page) {
  const heading = page.getByRole('heading', { name: 'Onde você perde tempo' });
  await expect
    .poll(
      async () => {
        await page.mouse.wheel(0, 500);
        return heading.count();
      },
      { timeout: 30_000 },
    )
    .toBeGreaterThan(0);
  await heading.scrollIntoViewIfNeeded();
}

test.describe('the rider’s record as the reference', () => {
  test.use({ viewport: { width: 360, height: 780 } });

  test('chosen in the picker, the tips and the corner table are against the record', async ({ page }) => {
    const faults = await watchForFaults(page);
    await signIn(page, { email: 'piloto@voltas.local' });
    await page.goto(SESSION);
    await expect(page.getByTestId('coaching-tips')).toBeVisible({ timeout: 30_000 });
    await whereTimeGoes(page);
    const picker = page.getByRole('combobox', { name: /^Comparar com/ });
    await picker.scrollIntoViewIfNeeded();
    const answer = page.waitForResponse((r) => /\/coaching\?.*ref=record/.test(r.url()));
    await picker.selectOption('record');
    expect((await answer).status()).toBe(200);
    await expect(page).toHaveURL(/referencia=recorde/);
    await expect(picker).toHaveValue('record');
    await expect(page.getByTestId('total-delta')).toHaveText(/^No total: [+−-]/);
    await expect(page.getByTestId('corner-study').getByTestId('corner-study-row').first()).toBeVisible();
    // The address keeps the choice: a reload shows the record again.
    await page.reload();
    await whereTimeGoes(page);
    await expect(picker).toHaveValue('record', { timeout: 30_000 });
    expect(faults).toEqual([]);
  });
});

test.describe('the rider’s video at a tip’s corner', () => {
  test.use({ viewport: { width: 360, height: 780 } });

  test('a tip plays the video from its corner', async ({ page }) => {
    const faults = await watchForFaults(page);
    await signIn(page, { email: 'piloto@voltas.local' });
    await page.goto(SESSION);
    await page.getByTestId('chart-speed').scrollIntoViewIfNeeded();
    await expect(page.getByTestId('chart-speed')).toHaveAttribute('data-ready', 'true');
    const panel = page.getByTestId('video-panel');
    const chooser = page.waitForEvent('filechooser');
    await panel.getByRole('button', { name: 'Escolher vídeo' }).click();
    await (await chooser).setFiles(SAMPLE);
    const player = page.getByTestId('video-player');
    await expect(player).toBeVisible({ timeout: 30_000 });
    await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
    // Synced by hand at the video's first frame: the best lap (the one the tips study) starts there.
    const manual = panel.locator('details.video-manual');
    if (!(await manual.evaluate((d: HTMLDetailsElement) => d.open))) await manual.locator('summary').click();
    await panel.getByRole('button', { name: 'Marcar: cruzando a linha agora' }).click();
    await expect(panel.getByTestId('video-sync')).toHaveText(/Sincronizado à mão/);

    // The first corner a tip names that the 10 s video shows, or any tip: the video goes to that
    // moment of the lap (or says the moment is not in the video).
    const sample = () => player.getAttribute('data-sample');
    const before = await sample();
    const tip = page.getByTestId('coaching-tip').first();
    await tip.scrollIntoViewIfNeeded();
    await tip.click();
    const outside = panel.getByText(/Esse momento não está no vídeo/);
    await expect.poll(async () => (await sample()) !== before || (await outside.isVisible())).toBe(true);
    await expect(page.getByTestId('track-map')).toHaveAttribute('data-focus', /,/);
    expect(faults).toEqual([]);
  });
});

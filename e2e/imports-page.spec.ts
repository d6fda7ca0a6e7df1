import { parseGpsSix } from '#core/formats/gps-six.ts';
import { writeGpx, writeVbo } from '#core/imports/test-support/writers.ts';
import { generateSession } from '#core/sim/session-generator.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { expect, scrollToSection, signIn, signOut, test, uniqueEmail } from './fixtures';

// A rider brings sessions from other loggers: drags a GPX and a VBO onto 'Importar sessões',
// watches them go up, opens the analysis of one and deletes the other.
const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;
const gen = generateSession(interlagos, { seed: 21, heats: 1, lapsPerHeat: [3, 3], gpsNoise: 0.2 });
const columns = parseGpsSix(gen.gpsSix).value;
const files = [
  { name: 'manha.gpx', content: writeGpx(columns, { y: 2026, m: 7, d: 11 }) },
  { name: 'tarde.vbo', content: writeVbo(columns, { y: 2026, m: 7, d: 12 }) },
];

test('drag a GPX and a VBO, see progress and results, open the analysis of one, delete the other', async ({ page }) => {
  await signIn(page, { email: uniqueEmail('importa') });
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Importar sessões' }).click();
  await expect(page.getByRole('heading', { name: 'Importar sessões' })).toBeVisible();
  await expect(page.getByText('Nenhum arquivo escolhido ainda.')).toBeVisible();

  // Every status each item goes through, as the page shows it.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { seen: string[] }).seen = seen;
    new MutationObserver((records) => {
      for (const r of records) {
        const el = r.target instanceof Element ? r.target.closest('[data-status]') : null;
        if (el) seen.push(el.getAttribute('data-status')!);
        for (const n of r.addedNodes)
          if (n instanceof Element && n.matches('[data-status]')) seen.push(n.getAttribute('data-status')!);
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
  });
  const dataTransfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([f.content], f.name, { type: 'application/octet-stream' }));
    return dt;
  }, files);
  await page.getByTestId('drop-zone').dispatchEvent('dragover', { dataTransfer });
  await page.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer });

  const items = page.getByTestId('import-item');
  await expect(items).toHaveCount(2);
  await expect(page.locator('[data-testid=import-item][data-status=done]')).toHaveCount(2, { timeout: 30_000 });
  const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
  expect(seen).toContain('sending');
  expect(seen).toContain('done');

  const gpx = items.filter({ hasText: 'manha.gpx' });
  const vbo = items.filter({ hasText: 'tarde.vbo' });
  await expect(gpx).toContainText('Interlagos · 11/07/2026');
  await expect(gpx).toContainText('voltas cronometradas pelo GPS');
  await expect(gpx).toContainText('Melhor volta: ');
  await expect(vbo).toContainText('Interlagos · 12/07/2026');
  // On a 360 px phone the page, results and all, fits: no sideways scroll.
  await page.setViewportSize({ width: 360, height: 780 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // Delete the VBO's session.
  page.once('dialog', (d) => void d.accept());
  await vbo.getByRole('button', { name: 'Apagar sessão importada' }).click();
  await expect(vbo).toContainText('Sessão importada apagada.');

  // The GPX's analysis opens like a device session's.
  await gpx.getByRole('link', { name: 'Análise' }).click();
  await expect(page).toHaveURL(/\/analytics\?hw=imp[0-9a-f]{12}&pista=Interlagos&data=11072026/);
  await expect(page.locator('canvas').first()).toBeVisible();
  await scrollToSection(page, 'Onde você perde tempo');

  // On /laps the collection is "Importados", and only the GPX's day is left.
  await page.goto('/laps');
  await expect(page.getByLabel('Data', { exact: true }).locator('option')).toHaveText(['11/07/2026']);
  await page.getByRole('button', { name: 'Carregar' }).click();
  await expect(page.getByTestId('lap-row').first()).toBeVisible();
  // Deleted from the laps screen too: nothing of it is left to choose.
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Apagar sessão importada' }).click();
  await expect(page).toHaveURL(/\/laps$/);
  await expect(page.getByLabel('Data', { exact: true }).locator('option', { hasText: '11/07/2026' })).toHaveCount(0);
  await signOut(page);
});

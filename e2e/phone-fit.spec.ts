import { E2E_ADMIN_EMAIL } from '../playwright.config';
import { expect, headerOnOneRow, type Page, scrollToSection, signIn, test } from './fixtures';

// Issue 25: every page, for every role, at 360 × 780: no sideways page scroll, and no touch target
// under 44 × 44 px (links inside running text excepted, as WCAG's target size rule does), and the
// Menu button beside the page's title, never on a row of its own.
test.use({ viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true });
test.setTimeout(120_000);

const SESSION = 'hw=000000000042&pista=Interlagos&data=15112026';

async function audit(page: Page, path: string, ready: () => Promise<void>) {
  await page.goto(path);
  await ready();
  await page.waitForTimeout(300);
  const found = await page.evaluate(() => {
    const small: string[] = [];
    const interactive = document.querySelectorAll(
      'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]',
    );
    for (const el of interactive) {
      const box = el.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1) continue; // not shown (or visually hidden, its label the target)
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden') continue;
      // A link in running text is as tall as its line (WCAG 2.5.8's inline exception).
      if (el.tagName === 'A' && el.closest('p, li, dd, td') && getComputedStyle(el).display === 'inline') continue;
      // A checkbox or radio counts with its label, when the label is the target.
      const target = (el as HTMLInputElement).labels?.[0]?.getBoundingClientRect() ?? box;
      const w = Math.max(box.width, target.width);
      const h = Math.max(box.height, target.height);
      if (w < 43.5 || h < 43.5)
        small.push(
          `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${(el.textContent ?? (el as HTMLInputElement).value ?? '').trim().slice(0, 30)}" ${Math.round(w)}×${Math.round(h)}`,
        );
    }
    return { width: document.documentElement.scrollWidth, small };
  });
  expect.soft(found.width, `${path}: page width`).toBeLessThanOrEqual(360);
  expect.soft(found.small, `${path}: touch targets under 44 px`).toEqual([]);
  expect.soft(await headerOnOneRow(page), `${path}: the Menu beside the title`).toBe(true);
}

const heading = (page: Page) => () => expect(page.locator('h1')).toBeVisible();

test('a rider’s pages fit a 360 px phone', async ({ page }) => {
  await signIn(page, { email: 'piloto@voltas.local' });
  for (const path of ['/user', '/enroll', '/sessoes', '/progresso?pista=Interlagos', '/links', '/importar', '/make'])
    await audit(page, path, heading(page));
  await audit(page, `/laps?${SESSION}`, () => expect(page.getByTestId('lap-row').first()).toBeVisible());
  // "Onde você perde tempo" is drawn as the rider scrolls to it: its controls are audited too.
  await audit(page, `/analytics?${SESSION}`, async () => {
    await expect(page.getByTestId('chart-speed')).toBeVisible();
    await scrollToSection(page, 'Onde você perde tempo');
  });
  await audit(page, `/comparar?${SESSION}&volta=A2&ref=recorde`, () =>
    expect(page.getByTestId('comparison')).toBeVisible(),
  );
  const share = await page.request.post('/api/shares', {
    data: { device: '000000000042', track: 'Interlagos', date: '15112026' },
  });
  expect(share.status()).toBe(201);
  await audit(page, new URL(((await share.json()) as { url: string }).url).pathname, () =>
    expect(page.getByTestId('shared-view')).toBeVisible(),
  );
});

// The Logout button is wider in Spanish (Cerrar sesión): the e-mail keeps room beside it, or it goes below.
for (const locale of ['pt-BR', 'es-ES']) {
  test.describe(`in ${locale}`, () => {
    test.use({ locale });

    test('on a phone the rider’s e-mail wraps after its @, its domain whole', async ({ page }) => {
      await signIn(page, { email: 'piloto@voltas.local' });
      const email = page.locator('.user-card-text .muted');
      await expect(email).toHaveText('piloto@voltas.local');
      // The lines the domain's characters sit on: one, whatever the card's width leaves it.
      const domainLines = await email.evaluate((p) => {
        const text = p.textContent!;
        const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
        const range = document.createRange();
        let at = 0;
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const length = node.textContent!.length;
          const from = text.indexOf('@') + 1 - at;
          if (from >= 0 && from <= length) range.setStart(node, from);
          range.setEnd(node, length);
          at += length;
        }
        return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
      });
      expect(domainLines).toBe(1);
    });
  });
}

test('on a phone the laps table shows lap, time and gap; sectors are one tap away (all columns on a wide screen)', async ({
  page,
}) => {
  await signIn(page, { email: 'piloto@voltas.local' });
  await page.goto(`/laps?${SESSION}`);
  const row = page.getByTestId('lap-row').nth(2);
  await expect(row.locator('.lap-time')).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Setores' })).toBeHidden();
  await expect(page.locator('.sector').first()).toBeHidden();
  await row.getByRole('button', { name: 'Setores' }).click();
  await expect(row.getByRole('button', { name: 'Setores' })).toHaveAttribute('aria-expanded', 'true');
  await expect(page.locator('.lap-details .sector')).toHaveCount(4);
  await expect(page.locator('.lap-details .sector').first()).toBeVisible();
  await page.setViewportSize({ width: 1024, height: 800 });
  await expect(page.getByRole('columnheader', { name: 'Setores' })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Setores' })).toBeHidden();
});

test('a seller’s pages fit a 360 px phone', async ({ page }) => {
  await signIn(page, { email: 'vendedor@voltas.local' });
  await audit(page, '/seller', heading(page));
});

test('an admin’s pages fit a 360 px phone', async ({ page }) => {
  await signIn(page, { email: E2E_ADMIN_EMAIL, name: 'Chefe' });
  for (const path of ['/adm', '/seller-adm', '/hardware', '/firmware', '/auditoria', '/pistas'])
    await audit(page, path, heading(page));
});

test('the sign-in page fits a 360 px phone', async ({ page }) => {
  await audit(page, '/login', () => expect(page.getByRole('button', { name: 'Login with Google' })).toBeVisible());
});

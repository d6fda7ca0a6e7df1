import { expect, type Page, serviceWorkerReady, signIn, test, uniqueEmail } from './fixtures';

// Issue 34, finding 5: offline copies belong to one rider. Rider A opens 'Minhas sessões' (kept by
// the service worker); A's sign-in lapses; rider B signs in on the same browser by the full-page
// redirect (popups blocked, or straight to the sign-in address); with no signal, B's 'Minhas
// sessões' shows nothing of A's.
test.use({ viewport: { width: 360, height: 780 } });
test.setTimeout(90_000);

const A = { email: 'piloto@voltas.local', name: 'Ana Piloto', session: 'Interlagos, 15/11/2026' };

/** Rider A signed in, on a page the worker controls, with 'Minhas sessões' kept. */
async function riderAKeepsSessions(page: Page) {
  await page.clock.install();
  await signIn(page, { email: A.email });
  await serviceWorkerReady(page);
  // The page that registered the worker is not yet its client; from the next load on it is.
  await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  await page.goto('/sessoes');
  await expect(page.getByTestId('my-session').first()).toContainText(A.session);
  // The copy is written after the answer reaches the page.
  await expect
    .poll(() =>
      page.evaluate(async () =>
        (await (await caches.open('voltas-data')).keys()).some((r) => new URL(r.url).pathname === '/api/sessions'),
      ),
    )
    .toBe(true);
}

/** The local provider's page, in the app's own tab: type B's e-mail and name, submit. */
async function signInOnProviderPage(page: Page, b: { email: string; name: string }) {
  await page.locator('input[name="email"]').first().fill(b.email);
  await page.locator('form.main input[name="name"]').fill(b.name);
  await page.locator('form.main button[type="submit"]').click();
  await expect(page).toHaveURL(/\/user$/);
  await expect(page.locator('.user-name')).toHaveText(b.name);
  // Before B saw anything, the copies kept for A went: every copy left is stamped with B.
  const stamps = await page.evaluate(async () => {
    const b = (await fetch('/api/me')).headers.get('x-voltas-user');
    const cache = await caches.open('voltas-data');
    const copies = await Promise.all(
      (await cache.keys()).filter((r) => r.url.includes('/api/')).map((r) => cache.match(r)),
    );
    return { b, others: copies.filter((c) => c?.headers.get('x-voltas-user') !== b).length };
  });
  expect(stamps.b).toBeTruthy();
  expect(stamps.others).toBe(0);
}

/** Offline, B's 'Minhas sessões' holds nothing of A's: neither A's sessions nor who A is. */
async function offlineShowsNothingOfA(page: Page, b: { email: string; name: string }) {
  await page.context().setOffline(true);
  await page.goto('/sessoes');
  await expect(page.getByRole('heading', { name: 'Minhas sessões', level: 1 })).toBeVisible();
  // The page settles on its offline state (A's copy is not B's to read), not on A's list.
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.getByTestId('my-session')).toHaveCount(0);
  await expect(page.locator('body')).not.toContainText(A.session);
  await expect(page.locator('body')).not.toContainText(A.name);
  await expect(page.locator('body')).not.toContainText(A.email);
  // Who is signed in is still B (B's own kept copy).
  await page.goto('/user');
  await expect(page.locator('.user-name')).toHaveText(b.name);
  await expect(page.locator('body')).not.toContainText(A.session);
  await expect(page.locator('body')).not.toContainText(A.name);
  await page.context().setOffline(false);
}

test('popups blocked: B signs in by the full-page redirect and reads nothing of A offline', async ({
  page,
  context,
}) => {
  await riderAKeepsSessions(page);
  // A's sign-in lapses: the browser no longer holds it.
  await context.clearCookies();
  const b = { email: uniqueEmail('segundo'), name: 'Bruno Segundo' };
  // A popup blocker: window.open answers null, and the app falls back to the full-page redirect.
  await page.addInitScript(() => {
    window.open = () => null;
  });
  await page.goto('/login');
  await page.getByRole('button', { name: 'Login with Google' }).click();
  await expect(page).toHaveURL(/\/oidc\//);
  await signInOnProviderPage(page, b);
  await offlineShowsNothingOfA(page, b);
});

test('B reaches the sign-in address itself: the worker alone keeps A out', async ({ page, context }) => {
  await riderAKeepsSessions(page);
  // A's sign-in lapses server-side (ended elsewhere): the browser still sends its cookie.
  const cookie = (await context.cookies()).find((c) => c.name === 'voltas_session')!;
  expect(cookie).toBeDefined();
  await context.clearCookies();
  await context.addCookies([{ ...cookie, value: 'expirado' }]);
  const b = { email: uniqueEmail('terceiro'), name: 'Bia Terceira' };
  // A bookmark, or the provider sending the browser back: no page of the app runs before it.
  await page.goto('/api/auth/login');
  await expect(page).toHaveURL(/\/oidc\//);
  await signInOnProviderPage(page, b);
  await offlineShowsNothingOfA(page, b);
});

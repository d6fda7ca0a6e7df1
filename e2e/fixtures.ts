import { test as base, expect, type APIResponse, type BrowserContext, type Cookie, type Page } from '@playwright/test';

// Specs import Playwright through here (lint holds it), so every test runs under the guard below.
export * from '@playwright/test';

/** What the guard watches for in a test's pages and workers. */
export interface PageGuard {
  /** Every CSP violation and uncaught error seen so far, one line each. */
  readonly problems: string[];
  /** Throws, listing them, when there was any. */
  check(): void;
  /** Forgets what was seen (the guard's own test, after a deliberate violation). */
  forget(): void;
}

/** Chromium's console line for a CSP refusal (in a page or a worker), and a worker's uncaught error. */
const CSP_LINE = /Content[- ]Security[- ]Policy|Refused to/i;
const UNCAUGHT_LINE = /^Uncaught/;

/** Watches every page of `context` (popups too) and their workers, noting what broke in `problems`. */
async function watchContext(context: BrowserContext, problems: string[]): Promise<void> {
  await context.exposeBinding('voltasGuardViolation', ({ page }, v: string) =>
    problems.push(`CSP violation on ${page.url()}: ${v}`),
  );
  await context.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) => {
      void (window as unknown as { voltasGuardViolation: (v: string) => Promise<void> }).voltasGuardViolation(
        `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`,
      );
    }),
  );
  const watch = (page: Page) => {
    // Playwright hands a dedicated worker's uncaught errors to its page too.
    page.on('pageerror', (e) => problems.push(`uncaught on ${page.url()}: ${e.stack ?? e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' && CSP_LINE.test(m.text())) problems.push(`console on ${page.url()}: ${m.text()}`);
    });
    page.on('worker', (worker) =>
      worker.on('console', (m) => {
        if (m.type() === 'error' && (CSP_LINE.test(m.text()) || UNCAUGHT_LINE.test(m.text())))
          problems.push(`worker ${worker.url()}: ${m.text()}`);
      }),
    );
  };
  context.pages().forEach(watch);
  context.on('page', watch);
}

/**
 * Every test fails on a Content-Security-Policy violation or an uncaught error in any page of its
 * context, or of a context it opens itself (browser.newContext), or any of their workers: uncaught
 * errors and unhandled rejections ('pageerror'), 'securitypolicyviolation' events, and the console
 * lines Chromium writes for a CSP refusal or a worker's uncaught error (a refused eval caught by
 * the code still logs one).
 */
export const test = base.extend<{ pageGuard: PageGuard }>({
  pageGuard: [
    async ({ context, browser }, use) => {
      const problems: string[] = [];
      const guard: PageGuard = {
        problems,
        check() {
          if (problems.length > 0)
            throw new Error(`CSP violations or uncaught errors in the pages:\n${problems.join('\n')}`);
        },
        forget: () => void problems.splice(0),
      };
      await watchContext(context, problems);
      const contexts = [context];
      const newContext = browser.newContext;
      browser.newContext = async (...args) => {
        const opened = await newContext.apply(browser, args);
        await watchContext(opened, problems);
        contexts.push(opened);
        return opened;
      };
      try {
        await use(guard);
      } finally {
        browser.newContext = newContext;
      }
      // A round trip to each page still open lets the events already sent arrive.
      const pages = contexts.flatMap((c) => c.pages());
      await Promise.all(pages.map((p) => p.evaluate(() => 0).catch(() => undefined)));
      guard.check();
    },
    { auto: true },
  ],
});

/**
 * Each account's cookies after its first real sign-in in this worker, reused by the next test that
 * signs that account in (Playwright's way to reuse a signed-in state): the popup flow takes ~2 s
 * and most tests are about what comes after it. The flow itself is tested every time an account
 * first signs in, and by the sign-in tests of foundation.spec.ts.
 */
const signedIn = new Map<string, Cookie[]>();

/**
 * Signs in through the real popup flow and the bundled OpenID provider's page, as a person
 * would: click the red button, type the e-mail (and name) in the popup, submit. An account signed
 * in before in this worker gets its session's cookies back instead, while that session lasts (a
 * test that signed out ended it: the flow again).
 */
export async function signIn(page: Page, account: { email: string; name?: string }): Promise<void> {
  const key = `${account.email}\n${account.name ?? ''}`;
  const cookies = signedIn.get(key);
  if (cookies) {
    await page.context().addCookies(cookies);
    if ((await page.request.get('/api/me')).ok()) {
      await page.goto('/user');
      await expect(page).toHaveURL(/\/user$/);
      return;
    }
    signedIn.delete(key);
    for (const { name } of cookies) await page.context().clearCookies({ name });
  }
  await page.goto('/login');
  const popupPromise = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Login with Google' }).click();
  const popup = await popupPromise;
  await popup.locator('input[name="email"]').first().fill(account.email);
  if (account.name) await popup.locator('form.main input[name="name"]').fill(account.name);
  // Listen before clicking: the popup can finish the flow and close before click() returns.
  const closed = popup.waitForEvent('close');
  await popup.locator('form.main button[type="submit"]').click();
  await closed;
  await expect(page).toHaveURL(/\/user$/);
  signedIn.set(key, await page.context().cookies());
}

/**
 * The app's service worker installed and active. The app registers it 10 s after the page has
 * settled (web/src/lib/service-worker.ts); a test whose page's clock was installed first
 * (`page.clock.install()`) jumps those seconds instead of waiting them.
 */
export async function serviceWorkerReady(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  await page.clock.fastForward(15_000);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
}

/** A fresh e-mail per test run, so "first sign-in" is really the first. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}.${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}@example.com`;
}

/**
 * A GET of a heavy read (an analysis, an export) made beside the page's own: a user may have two in
 * flight and a third is refused at once with 429 (server/src/plugins/heavy-reads.ts), which a busy
 * machine makes likely while the page still loads. Asked again until the server takes it; then it
 * must be a 200.
 */
export async function heavyGet(page: Page, url: string): Promise<APIResponse> {
  let res: APIResponse | undefined;
  await expect
    .poll(async () => (res = await page.request.get(url)).status(), { message: `GET ${url}`, timeout: 15_000 })
    .not.toBe(429);
  expect(res!.status(), `GET ${url}`).toBe(200);
  return res!;
}

/** Holds the answers to requests for `url` until the returned function is called. */
export async function holdAnswers(page: Page, url: string): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

export async function signOut(page: Page): Promise<void> {
  await page.goto('/user');
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

/**
 * Scrolls to a section the page draws only as the rider scrolls near it (`WhenNear`: until then a
 * region of its name), as a rider would, until its heading is there.
 */
export async function scrollToSection(page: Page, name: string): Promise<void> {
  const region = page.getByRole('region', { name, exact: true });
  await expect(async () => {
    await region.scrollIntoViewIfNeeded({ timeout: 2_000 });
    await expect(page.getByRole('heading', { name, exact: true })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
}

/**
 * Whether the page's header holds its title and its Menu button side by side (a long title wraps
 * its words; it does not push the Menu to a row of its own). True on a page without that header.
 */
export async function headerOnOneRow(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const title = document.querySelector('.page-header .page-title')?.getBoundingClientRect();
    const menu = document.querySelector('.page-header > button[aria-expanded], .page-header > .skeleton-menu');
    const box = menu?.getBoundingClientRect();
    return !title || !box || (box.top < title.bottom && title.top < box.bottom);
  });
}

import { readdirSync } from 'node:fs';
import { expect, test } from './fixtures';

// The guard every test runs under (e2e/fixtures.ts) sees what it is there for: were it deaf, every
// other spec would pass over a CSP violation or an uncaught error.
const workerScript = readdirSync('dist/web/assets').find((f) => /^video-sync-worker-.*\.js$/.test(f))!;

test('the guard catches a refused inline script, an uncaught page error and a worker’s', async ({
  page,
  pageGuard,
  browser,
}) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Login with Google' })).toBeVisible();
  expect(pageGuard.problems).toEqual([]);

  // An inline script, as an injection would add it: the CSP refuses it, and the guard says so.
  await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.injected = true';
    document.body.append(s);
  });
  await expect.poll(() => pageGuard.problems.join('\n')).toMatch(/script-src/);
  expect(() => pageGuard.check()).toThrow(/CSP violations or uncaught errors/);
  expect(await page.evaluate(() => 'injected' in window)).toBe(false);
  pageGuard.forget();

  // An error nothing catches, in the page.
  await page.evaluate(() => {
    setTimeout(() => {
      throw new Error('deliberate page error');
    });
  });
  await expect.poll(() => pageGuard.problems.join('\n')).toMatch(/deliberate page error/);
  pageGuard.forget();

  // And in a worker (Playwright hands its uncaught errors to the page): the app's video worker
  // handed a message it cannot read.
  await page.evaluate((url) => {
    new Worker(url, { type: 'module' }).postMessage({ files: null, trace: null });
  }, `/assets/${workerScript}`);
  await expect.poll(() => pageGuard.problems.join('\n')).toMatch(/not iterable[\s\S]*video-sync-worker-/);
  expect(() => pageGuard.check()).toThrow();
  pageGuard.forget();

  // A context the test opens itself (a second rider, a stranger) is watched too.
  const stranger = await browser.newContext();
  const other = await stranger.newPage();
  await other.goto('/login');
  await other.evaluate(() => {
    setTimeout(() => {
      throw new Error('deliberate error in another context');
    });
  });
  await expect.poll(() => pageGuard.problems.join('\n')).toMatch(/deliberate error in another context/);
  pageGuard.forget();
  await stranger.close();
});

/**
 * A shared link's first screen as the server writes it (server/src/modules/shares/shared-page.html.ts):
 * the figures and laps, in the visitor's language, readable before any of the app's code has run.
 * The app (shared-page.tsx: a lap's charts and line, the visitor's own laps to lay it over, the
 * menu) starts when the page needs it: at once when the server says so (a link to one lap shows
 * its charts; a signed-in visitor gets their laps to compare), else on the first click of a
 * control, which is clicked again once the app has drawn the page.
 */
export function sharedFirstScreen(root: HTMLElement, startApp: () => Promise<unknown>): void {
  if (root.dataset.start === 'now') {
    void startApp();
    return;
  }
  const onClick = (event: MouseEvent) => {
    const control = event.target instanceof Element ? event.target.closest('button') : null;
    if (!control) return; // links work by themselves
    root.removeEventListener('click', onClick);
    const name = nameOf(control);
    void startApp().then(() => clickWhenDrawn(root, name));
  };
  root.addEventListener('click', onClick);
}

const nameOf = (button: HTMLButtonElement) => button.getAttribute('aria-label') ?? button.textContent;

/** Clicks the app's button of that name as soon as the app has drawn it in place of the first screen. */
function clickWhenDrawn(root: HTMLElement, name: string | null): void {
  const find = () =>
    [...root.querySelectorAll('button')].find((b) => !b.closest('[data-first-screen]') && nameOf(b) === name);
  const click = () => {
    const button = find();
    if (!button) return false;
    button.click();
    return true;
  };
  if (click()) return;
  const observer = new MutationObserver(() => click() && observer.disconnect());
  observer.observe(root, { childList: true, subtree: true });
  setTimeout(() => observer.disconnect(), 10_000);
}

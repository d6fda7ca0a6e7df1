/**
 * The service worker (offline copies, the app without a signal; decision 025), registered well
 * after the page has loaded and gone idle: its install downloads every file of the app, which must
 * not compete with the page the rider opened. Called by the app (main.tsx), which offers a new
 * version on the page (`offer`: lib/offline.ts), never forced, and by the pages the server writes
 * (first-screen.ts; a page the worker controls is the app's, so none waits there). Once per page.
 */
const SERVICE_WORKER_DELAY_MS = 10_000;
let asked = false;

export function registerServiceWorker(offer?: (activate: () => Promise<void>) => void): void {
  if (asked || !('serviceWorker' in navigator) || !import.meta.env.PROD) return;
  asked = true;
  const register = () =>
    void import('workbox-window').then(({ Workbox }) => {
      const wb = new Workbox('/sw.js');
      // A new version waiting: offered on the page; taken when the rider says so (then reload).
      wb.addEventListener('waiting', () =>
        offer?.(async () => {
          wb.addEventListener('controlling', () => window.location.reload());
          wb.messageSkipWaiting();
        }),
      );
      void wb.register();
    });
  const idle = (run: () => void) =>
    'requestIdleCallback' in window ? requestIdleCallback(run, { timeout: 5_000 }) : setTimeout(run, 0);
  // Already installed: register at once (it only checks for an update); else after the page settles.
  void navigator.serviceWorker.getRegistration().then((existing) => {
    if (existing) register();
    else {
      const later = () => setTimeout(() => idle(register), SERVICE_WORKER_DELAY_MS);
      if (document.readyState === 'complete') later();
      else window.addEventListener('load', later, { once: true });
    }
  });
}

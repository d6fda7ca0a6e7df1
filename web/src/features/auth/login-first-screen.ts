/**
 * /login as the server writes it (server/src/modules/auth/login-page.html.ts): the logo and
 * "Login with Google" in the visitor's language, working before any of the app's code has run.
 * This wires its button to the same popup sign-in as login-page.tsx (the page the app draws when
 * it sends a rider to /login itself, or opens offline); the parts it shows and hides are there,
 * hidden, from the start.
 */
import { deleteKeptAnswers } from '#web/lib/offline-contract.ts';
import { signInWithPopup } from './popup-sign-in';

export function loginFirstScreen(root: HTMLElement): void {
  const part = (name: string) => root.querySelector<HTMLElement>(`[data-login=${name}]`)!;
  const button = part('button') as HTMLButtonElement;
  const waiting = part('waiting');
  const offline = part('offline');

  const showOnline = () => (offline.hidden = navigator.onLine);
  showOnline();
  window.addEventListener('online', showOnline);
  window.addEventListener('offline', showOnline);

  // A whole page load, not the app's navigation: /user then starts the app, signed in.
  const goToUser = async () => {
    // A new sign-in starts with nothing of whoever used this device before.
    await deleteKeptAnswers();
    window.location.replace('/user');
  };
  const wait = (on: boolean) => {
    button.disabled = on;
    button.setAttribute('aria-busy', String(on));
    waiting.hidden = !on;
  };

  button.addEventListener('click', () => {
    wait(true);
    void signInWithPopup(() => void goToUser()).then(async (result) => {
      wait(false);
      if (result.ok) {
        console.info('You have been successfully logged in!');
        await goToUser();
      } else {
        console.warn('login failed:', result.error);
        window.location.replace(`/login?erro=${encodeURIComponent(result.error)}`);
      }
    });
  });
}

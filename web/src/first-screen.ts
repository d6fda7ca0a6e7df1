/**
 * The entry of the pages the server writes whole (first-screen.html): /login and a shared link's
 * first screen, in the visitor's language, readable and usable before the app's code has run. No
 * React here: on a phone, evaluating the whole app is the longest task of a page load, and these
 * two pages need it only for what comes after (a friend's chart, a rider's signed-in pages). The
 * app (main.tsx) starts when the page needs it, and draws in place of the first screen.
 */
import './styles.css';
import { pageLanguage } from './app/language';
import { loginFirstScreen } from './features/auth/login-first-screen';
import { sharedFirstScreen } from './features/shared/shared-first-screen';
import { registerServiceWorker } from './lib/service-worker';
import { applyTheme, storedTheme } from './lib/theme';

applyTheme(storedTheme());
registerServiceWorker();

const root = document.getElementById('root')!;
// The app's entry as the built index.html names it (the server copies it into data-app), imported
// by its address rather than as './main': that keeps the app's own files as the bundler splits them
// for its page (one entry file), instead of splitting them again to share with this one.
const startApp = () => import(/* @vite-ignore */ root.dataset.app!);
// The server wrote the page in the browser's language; a rider who chose another one in the app
// gets the app, which opens in theirs.
if (pageLanguage() !== document.documentElement.lang) void startApp();
else if (root.dataset.page === 'login') loginFirstScreen(root);
else if (root.dataset.page === 'shared') sharedFirstScreen(root, startApp);
else void startApp();

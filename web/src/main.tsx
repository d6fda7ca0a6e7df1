import { QueryClientProvider } from '@tanstack/react-query';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RawIntlProvider, type IntlShape } from 'react-intl';
import { intlFor, translator } from '#core/i18n/intl.ts';
import { chosenLanguage, pageLanguage } from './app/language';
import { LanguageFollowsProfile } from './app/language-follows-profile';
import { createRoutes } from './app/router';
import { codeOnDemand } from './lib/code-on-demand';
import { createQueryClient } from './lib/query-client';
import { loadCatalog, loadPageWords } from './i18n/catalogs';
import { setRequestLanguage } from './lib/api-client';
import { setDisplayLanguage } from './lib/format';
import { fetchMe, ME_KEY } from './lib/session';
import './styles.css';
import { applyTheme, storedTheme } from './lib/theme';
import { offerUpdate } from './lib/offline';

// The rider's theme before the first paint (no flash of the other one).
applyTheme(storedTheme());

// Live updates load after the first paint, without Suspense (see code-on-demand.ts); nothing on
// screen waits for them, and a failed download only means no live updates.
const liveUpdates = codeOnDemand(() =>
  Promise.all([import('./lib/live-updates'), loadPageWords(pageLanguage())]).then(([m]) => m.LiveUpdates),
);
function LiveUpdatesLater() {
  const { Component } = liveUpdates.useCode();
  return Component ? <Component /> : null;
}

// The service worker (offline copies, the app without a signal) registers well after the page has
// loaded and gone idle: its install downloads every file of the app, which must not compete with
// the page the rider opened. A new version is offered on the page (lib/offline.ts), never forced.
const SERVICE_WORKER_DELAY_MS = 10_000;
if ('serviceWorker' in navigator && import.meta.env.PROD) {
  const register = () =>
    void import('workbox-window').then(({ Workbox }) => {
      const wb = new Workbox('/sw.js');
      // A new version waiting: offered on the page; taken when the rider says so (then reload).
      wb.addEventListener('waiting', () =>
        offerUpdate(async () => {
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

// The page's words: the rider's language, its catalog downloaded first when it is not pt-BR's.
const language = pageLanguage();
document.documentElement.lang = language;
// The rider's choice goes with every request (the server's messages in it); else the browser's own
// Accept-Language goes, region included (en-US: mph by default).
const chosen = chosenLanguage();
if (chosen) setRequestLanguage(chosen);

const queryClient = createQueryClient();
// Who is signed in is needed by every route: ask at boot, beside the route's own code.
void queryClient.prefetchQuery({ queryKey: ME_KEY, queryFn: fetchMe });
const AppRoutes = createRoutes(queryClient);

const render = () => {
  const t = translator(intlFor(language));
  setDisplayLanguage(language, { left: t('format.leanLeft'), right: t('format.leanRight') });
  // index.html is one file for every language (and the offline copy): its description follows the page's.
  document.querySelector('meta[name=description]')?.setAttribute('content', t('app.description'));
  // The same intl as non-React code uses (core/i18n/intl.ts); react-intl's type differs only in its
  // rich-text elements (React nodes), which no message of the catalogs has.
  const intl = intlFor(language) as unknown as IntlShape;
  const root = createRoot(document.getElementById('root')!);
  // A transition: React renders the first screen in slices of a few milliseconds, so a phone's main
  // thread is never held for the whole tree at once (what Lighthouse counts as blocking time).
  startTransition(() =>
    root.render(
      <StrictMode>
        <RawIntlProvider value={intl}>
          <QueryClientProvider client={queryClient}>
            <LiveUpdatesLater />
            <LanguageFollowsProfile current={language} />
            <AppRoutes />
          </QueryClientProvider>
        </RawIntlProvider>
      </StrictMode>,
    ),
  );
};
// A catalog that fails to download (offline, old tab after a release) leaves the page in pt-BR.
void loadCatalog(language).then(render, render);

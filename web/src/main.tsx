// The web app's entry point: applies the theme, registers the offline service worker, picks the language
// and asks who is signed in, then renders the app once that language's catalog has loaded (pt-BR if it cannot).
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
import { meQuery } from './lib/session';
import './styles.css';
import { applyTheme, storedTheme } from './lib/theme';
import { offerUpdate } from './lib/offline';
import { registerServiceWorker } from './lib/service-worker';

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

registerServiceWorker(offerUpdate);

// The page's words: the rider's language, its catalog downloaded first when it is not pt-BR's.
const language = pageLanguage();
document.documentElement.lang = language;
// The rider's choice goes with every request (the server's messages in it); else the browser's own
// Accept-Language goes, region included (en-US: mph by default).
const chosen = chosenLanguage();
if (chosen) setRequestLanguage(chosen);

const queryClient = createQueryClient();
// Who is signed in is needed by every route: ask at boot, beside the route's own code.
void queryClient.prefetchQuery(meQuery);
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

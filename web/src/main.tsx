import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createRoutes } from './app/router';
import { codeOnDemand } from './lib/code-on-demand';
import { createQueryClient } from './lib/query-client';
import { fetchMe, ME_KEY } from './lib/session';
import './styles.css';
import { applyTheme, storedTheme } from './lib/theme';
import { offerUpdate } from './lib/offline';

// The rider's theme before the first paint (no flash of the other one).
applyTheme(storedTheme());

// Live updates load after the first paint, without Suspense (see code-on-demand.ts); nothing on
// screen waits for them, and a failed download only means no live updates.
const liveUpdates = codeOnDemand(() => import('./lib/live-updates').then((m) => m.LiveUpdates));
function LiveUpdatesLater() {
  const { Component } = liveUpdates.useCode();
  return Component ? <Component /> : null;
}

// The service worker (offline copies, the app without a signal) registers after the first paint;
// a new version is offered on the page (lib/offline.ts), never taken mid-use.
if ('serviceWorker' in navigator && import.meta.env.PROD) {
  window.addEventListener('load', () => {
    void import('virtual:pwa-register').then(({ registerSW }) => {
      const updateSW = registerSW({ onNeedRefresh: () => offerUpdate(() => updateSW(true)) });
    });
  });
}

const queryClient = createQueryClient();
// Who is signed in is needed by every route: ask at boot, beside the route's own code.
void queryClient.prefetchQuery({ queryKey: ME_KEY, queryFn: fetchMe });
const AppRoutes = createRoutes(queryClient);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <LiveUpdatesLater />
      <AppRoutes />
    </QueryClientProvider>
  </StrictMode>,
);

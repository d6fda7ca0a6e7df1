import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, useEffect, useState, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { createRoutes } from './app/router';
import { createQueryClient } from './lib/query-client';
import { fetchMe, ME_KEY } from './lib/session';
import './styles.css';

/**
 * Live updates load after the first paint; nothing on screen waits for them (and a failed
 * download only means no live updates). Not React.lazy: a Suspense fallback, even an empty one,
 * holds back every later reveal of the app for 300 ms (React's fallback throttle).
 */
function LiveUpdatesLater() {
  const [LiveUpdates, setLiveUpdates] = useState<ComponentType | null>(null);
  useEffect(() => {
    let live = true;
    import('./lib/live-updates').then(
      (m) => live && setLiveUpdates(() => m.LiveUpdates),
      () => {},
    );
    return () => {
      live = false;
    };
  }, []);
  return LiveUpdates ? <LiveUpdates /> : null;
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

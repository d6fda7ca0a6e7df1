import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { createRoutes } from './app/router';
import { createQueryClient } from './lib/query-client';
import { fetchMe, ME_KEY } from './lib/session';
import './styles.css';

// Live updates load after the first paint; nothing on screen waits for them.
const LiveUpdates = lazy(() => import('./lib/live-updates').then((m) => ({ default: m.LiveUpdates })));
const queryClient = createQueryClient();
// Who is signed in is needed by every route: ask at boot, beside the route's own code.
void queryClient.prefetchQuery({ queryKey: ME_KEY, queryFn: fetchMe });
const AppRoutes = createRoutes(queryClient);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <Suspense fallback={null}>
        <LiveUpdates />
      </Suspense>
      <AppRoutes />
    </QueryClientProvider>
  </StrictMode>,
);

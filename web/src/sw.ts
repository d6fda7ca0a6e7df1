/// <reference lib="webworker" />
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkFirst } from 'workbox-strategies';
import { DATA_CACHE, STORED_AT_HEADER } from './lib/offline-contract';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

// The app shell (every built file, precached at install): the app opens with no signal.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// Any page of the app is the app's page; the server's own addresses, and the page the sign-in
// popup lands on (it tells the opener and closes), are not.
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/api\//, /^\/oidc\//, /^\/auth-done\.html/] }));

/**
 * What a rider opened stays readable offline: the session reads (laps, GPS, analysis, corners),
 * their lists and records, and who they are. Network first (fresh when there is a signal, within
 * a few seconds on a weak one); each copy kept carries the moment it was kept, which the page
 * shows in its offline banner. Sign-in, uploads, live updates, shared links and admin pages are
 * never kept. The page empties this cache at sign-out (lib/offline.ts).
 */
const KEPT = /^\/api\/(me$|devices\/|sessions($|\/)|tracks\/catalogue)/;
registerRoute(
  ({ url, request }) => request.method === 'GET' && url.origin === self.location.origin && KEPT.test(url.pathname),
  new NetworkFirst({
    cacheName: DATA_CACHE,
    networkTimeoutSeconds: 8,
    plugins: [
      {
        // Only complete answers, stamped: a copy served from here says when it was kept.
        cacheWillUpdate: async ({ response }) => {
          if (response.status !== 200) return null;
          const headers = new Headers(response.headers);
          headers.set(STORED_AT_HEADER, new Date().toISOString());
          // The body is already decoded: the copy must not claim an encoding or a length.
          headers.delete('content-encoding');
          headers.delete('content-length');
          return new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers });
        },
      },
    ],
  }),
);

// A new version waits until the rider says so (the page offers it; never mid-use).
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

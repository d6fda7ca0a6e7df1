/// <reference lib="webworker" />
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkFirst } from 'workbox-strategies';
import { DATA_CACHE, keptCopyServes, signedInBy, STORED_AT_HEADER, USER_HEADER } from './lib/offline-contract';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

// The app shell (every built file, precached at install): the app opens with no signal.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// Any page of the app is the app's page; the server's own addresses, and the page the sign-in
// popup lands on (it tells the opener and closes), are not.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    denylist: [/^\/api\//, /^\/oidc\//, /^\/auth-done\.html/],
  }),
);

/**
 * Who is signed in, as the server last said (USER_HEADER on an answer; nobody after a 401 or once a
 * sign-in or sign-out starts). Kept in the data cache itself, under an address no request uses:
 * it outlives the worker's restarts and goes with the copies when the page empties the cache.
 */
const SIGNED_IN = new URL('/__voltas/signed-in', self.location.origin).href;

async function signedIn(cache: Cache): Promise<string | null> {
  const marker = await cache.match(SIGNED_IN);
  return marker ? marker.text() : null;
}

/** The copy kept for `request`, if it answers whoever is signed in now. */
async function keptCopy(request: Request): Promise<Response | undefined> {
  const cache = await caches.open(DATA_CACHE);
  const copy = await cache.match(request);
  return copy && keptCopyServes(copy.headers.get(USER_HEADER), await signedIn(cache)) ? copy : undefined;
}

/** `request` with `if-none-match` set to `etag`, or without it. */
function withIfNoneMatch(request: Request, etag: string | null): Request {
  const headers = new Headers(request.headers);
  if (etag) headers.set('if-none-match', etag);
  else headers.delete('if-none-match');
  return new Request(request, { headers });
}

/** A new user: every copy kept for anyone else goes, before this user's answer reaches the page. */
async function noteSignedIn(user: string | null): Promise<void> {
  const cache = await caches.open(DATA_CACHE);
  if (user === (await signedIn(cache))) return;
  if (!user) {
    await cache.delete(SIGNED_IN);
    return;
  }
  for (const request of await cache.keys()) {
    if (request.url === SIGNED_IN) continue;
    const copy = await cache.match(request);
    if (!keptCopyServes(copy?.headers.get(USER_HEADER) ?? null, user)) await cache.delete(request);
  }
  await cache.put(SIGNED_IN, new Response(user));
}

// Signing in or out (popup, full-page redirect, a bookmark, logout): until the server says who, no
// kept copy answers anyone. The request itself goes on to the network untouched.
self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.origin === self.location.origin && url.pathname.startsWith('/api/auth/')) event.waitUntil(noteSignedIn(null));
});

/**
 * What a rider opened stays readable offline: the session reads (laps, GPS, analysis, corners),
 * their lists and records, and who they are. Network first (fresh when there is a signal, within
 * a few seconds on a weak one); each copy kept carries the moment it was kept, which the page
 * shows in its offline banner, and the user it was kept for: it answers that user only. Sign-in,
 * uploads, live updates, shared links and admin pages are never kept. The page also empties this
 * cache at sign-out and popup sign-in (lib/offline.ts).
 */
const KEPT = /^\/api\/(me$|devices\/|sessions($|\/)|tracks\/catalogue)/;
registerRoute(
  ({ url, request }) => request.method === 'GET' && url.origin === self.location.origin && KEPT.test(url.pathname),
  new NetworkFirst({
    cacheName: DATA_CACHE,
    networkTimeoutSeconds: 8,
    plugins: [
      {
        // Signed-in answers are `no-store`, so the browser's HTTP cache keeps none: the kept copy's
        // ETag asks the server whether it changed (laps, GPS), and a 304 is answered with that copy.
        requestWillFetch: async ({ request }) => {
          // (An address opened as a page cannot be rebuilt with other headers; it goes as it is.)
          if (request.mode === 'navigate') return request;
          const etag = (await keptCopy(request))?.headers.get('etag');
          return etag ? withIfNoneMatch(request, etag) : request;
        },
        // Every answer from the network says who is signed in now; awaited before the page gets it.
        fetchDidSucceed: async ({ request, response }) => {
          const user = signedInBy(response.status, response.headers.get(USER_HEADER));
          if (user !== undefined) await noteSignedIn(user);
          if (response.status !== 304) return response;
          const copy = await keptCopy(request);
          // The copy went meanwhile (another user signed in): ask for the whole answer.
          if (!copy) return fetch(withIfNoneMatch(request, null));
          // Fresh as the server just said: no kept-copy stamp, so the page shows no offline banner.
          const headers = new Headers(copy.headers);
          headers.delete(STORED_AT_HEADER);
          return new Response(await copy.blob(), { status: 200, statusText: 'OK', headers });
        },
        // Only complete answers for a known user, stamped: a copy says when it was kept.
        cacheWillUpdate: async ({ response }) => {
          if (response.status !== 200 || !response.headers.get(USER_HEADER)) return null;
          const headers = new Headers(response.headers);
          headers.set(STORED_AT_HEADER, new Date().toISOString());
          // The body is already decoded: the copy must not claim an encoding or a length.
          headers.delete('content-encoding');
          headers.delete('content-length');
          return new Response(await response.blob(), {
            status: response.status,
            statusText: response.statusText,
            headers,
          });
        },
        // A copy answers only the user it was kept for; otherwise the page shows its offline state.
        cachedResponseWillBeUsed: async ({ cachedResponse }) => {
          if (!cachedResponse) return null;
          const user = await signedIn(await caches.open(DATA_CACHE));
          return keptCopyServes(cachedResponse.headers.get(USER_HEADER), user) ? cachedResponse : null;
        },
      },
    ],
  }),
);

// A new version waits until the rider says so (the page offers it; never mid-use).
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

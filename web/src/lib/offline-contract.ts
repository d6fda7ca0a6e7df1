/** Shared by the service worker (web/src/sw.ts) and the page: the cache of kept answers and its stamps. */
export { USER_HEADER } from '#core/contracts/user-header.ts';
export const DATA_CACHE = 'voltas-data';

/** Every kept answer deleted (sign-in, sign-out): nothing of a rider's stays readable offline here. */
export async function deleteKeptAnswers(): Promise<void> {
  if (typeof caches === 'undefined') return;
  await caches.delete(DATA_CACHE).catch(() => false);
}
/** On an answer the service worker served from its cache: when it was kept (ISO). */
export const STORED_AT_HEADER = 'x-voltas-stored-at';

/**
 * Who a network answer says is signed in: the user's key (USER_HEADER), null for nobody (401), or
 * undefined when it does not say.
 */
export function signedInBy(status: number, user: string | null): string | null | undefined {
  if (status === 401) return null;
  return user || undefined;
}

/** A kept copy answers only the user it was kept for: never another one, never an unknown one. */
export function keptCopyServes(copyUser: string | null, signedIn: string | null): boolean {
  return Boolean(copyUser) && copyUser === signedIn;
}

/** Shared by the service worker (web/src/sw.ts) and the page: the cache of kept answers and its stamp. */
export const DATA_CACHE = 'voltas-data';
/** On an answer the service worker served from its cache: when it was kept (ISO). */
export const STORED_AT_HEADER = 'x-voltas-stored-at';

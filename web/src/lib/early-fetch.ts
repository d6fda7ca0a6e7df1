/**
 * Downloads started before the code that reads them has loaded (the analytics page asks for its
 * GPS file while its own code is still on the way). Taken once; a later read fetches anew.
 */
const started = new Map<string, Promise<Response>>();

/** Unclaimed downloads are dropped after this long (the page may never ask, e.g. a foreign device). */
const KEEP_MS = 30_000;

export function fetchEarly(url: string): void {
  if (started.has(url)) return;
  const res = fetch(url, { credentials: 'same-origin' });
  res.catch(() => undefined); // a failure is seen by whoever takes it (or no one)
  started.set(url, res);
  setTimeout(() => {
    if (started.get(url) === res) started.delete(url);
  }, KEEP_MS);
}

/** The download started for `url`, if any (and forgets it). */
export function takeEarly(url: string): Promise<Response> | undefined {
  const res = started.get(url);
  started.delete(url);
  return res;
}

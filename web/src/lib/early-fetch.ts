/**
 * Downloads started before the code that reads them has loaded (the analytics page asks for its
 * GPS file while its own code is still on the way). Taken once; a later read fetches anew.
 */
const started = new Map<string, Promise<Response>>();

export function fetchEarly(url: string): void {
  if (!started.has(url)) started.set(url, fetch(url, { credentials: 'same-origin' }));
}

/** The download started for `url`, if any (and forgets it). */
export function takeEarly(url: string): Promise<Response> | undefined {
  const res = started.get(url);
  started.delete(url);
  return res;
}

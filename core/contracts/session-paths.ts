// A session's address and its API path, shared by the web and the server (no zod: the web's fastest paths import it).
const seg = encodeURIComponent;

/**
 * A track session's address, the same on the web and the server: the device (or a rider's import
 * collection), the track and the date (ddmmyyyy). No schemas here: imported on the web's fastest
 * paths and by the server's page preloads.
 */
export interface SessionAddress {
  device: string;
  track: string;
  date: string;
}

/** A rider's own import collection ('imp' + hex), where device ids are 12 digits. */
export function isImportCollection(id: string): boolean {
  return /^imp[0-9a-f]{12}$/.test(id);
}

/** API path of one session. */
export function sessionPath(s: SessionAddress): string {
  return `/api/devices/${seg(s.device)}/sessions/${seg(s.track)}/${seg(s.date)}`;
}

/** The app's own addresses carry a session as the spec's `?hw=&pista=&data=` (bookmarkable). */
export function addressFromQuery(q: URLSearchParams): SessionAddress | null {
  const device = q.get('hw');
  const track = q.get('pista');
  const date = q.get('data');
  return device && track && date ? { device, track, date } : null;
}

export function addressToQuery(s: SessionAddress): { hw: string; pista: string; data: string } {
  return { hw: s.device, pista: s.track, data: s.date };
}

/**
 * What the analytics page downloads first, in the order it needs them. Not its GPS file (half a
 * megabyte): on a phone's link that held the first paint back by seconds; it is asked for once
 * the figures and laps have painted.
 */
export const ANALYTICS_PRELOADS = ['analysis', 'laps'] as const;

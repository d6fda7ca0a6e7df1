const seg = encodeURIComponent;

/** API path of one session (no schemas here: imported on the web's fastest paths and by the server's page preloads). */
export function sessionPath(device: string, track: string, date: string): string {
  return `/api/devices/${seg(device)}/sessions/${seg(track)}/${seg(date)}`;
}

/** What the analytics page downloads first, in the order it needs them. */
export const ANALYTICS_PRELOADS = ['gps.bin', 'analysis', 'laps'] as const;

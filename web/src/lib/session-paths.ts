const seg = encodeURIComponent;

/** API path of one session (no schemas here: imported on the fastest paths). */
export function sessionPath(device: string, track: string, date: string): string {
  return `/api/devices/${seg(device)}/sessions/${seg(track)}/${seg(date)}`;
}

/** The spec's date folders: ddmmyyyy, 8 digits, a real calendar date. */
export function parseDdmmyyyy(s: string): { y: number; m: number; d: number } | undefined {
  if (!/^\d{8}$/.test(s)) return undefined;
  const d = Number(s.slice(0, 2));
  const m = Number(s.slice(2, 4));
  const y = Number(s.slice(4, 8));
  if (y < 2000 || y > 2100 || m < 1 || m > 12 || d < 1) return undefined;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d <= days ? { y, m, d } : undefined;
}

export function isDdmmyyyy(s: string): boolean {
  return parseDdmmyyyy(s) !== undefined;
}

/** ddmmyyyy → yyyy-mm-dd (sortable). */
export function ddmmyyyyToIso(s: string): string {
  const p = parseDdmmyyyy(s);
  if (!p) throw new RangeError(`not a ddmmyyyy date: ${s}`);
  return `${p.y}-${String(p.m).padStart(2, '0')}-${String(p.d).padStart(2, '0')}`;
}

/** ddmmyyyy → dd/mm/yyyy, the spec's display form. */
export function formatDdmmyyyy(s: string): string {
  return `${s.slice(0, 2)}/${s.slice(2, 4)}/${s.slice(4, 8)}`;
}

export function dateToDdmmyyyy(date: Date): string {
  return `${String(date.getUTCDate()).padStart(2, '0')}${String(date.getUTCMonth() + 1).padStart(2, '0')}${date.getUTCFullYear()}`;
}

/** Track names as path segments: no '/', '..', control characters; 1–64 characters. */
const TRACK_NAME_MAX = 64;
export function isValidTrackName(s: string): boolean {
  if (s.length < 1 || s.length > TRACK_NAME_MAX) return false;
  if (s === '.' || s === '..' || s.includes('/') || s.includes('\\') || s.includes('..')) return false;
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (/[\u0000-\u001f\u007f-\u009f]/.test(s)) return false;
  // Only letters, digits, space, dash, underscore and dot: no look-alike slashes or invisible marks.
  return /^[\p{L}\p{N} _.-]+$/u.test(s) && s.trim() === s;
}

/** Device ids: 12 digits. */
export function isDeviceId(s: string): boolean {
  return /^\d{12}$/.test(s);
}

// A session's files: their names, size limits, blob keys, and the checks on a session's address.
import { isDdmmyyyy, isValidTrackName } from '#core/formats/dates.ts';
import { AppError } from '#core/errors.ts';
import { MAX_LAP_SIX_BYTES } from '#core/formats/lap-six.ts';

/** The two files of a track session, as the device names them. */
export type SixKind = 'lap' | 'gps';
export const SIX_FILE: Record<SixKind, string> = { lap: 'lap.six', gps: 'gps.six' };

/**
 * Upload limits: a lap.six is a few kB; a gps.six of 3 h at 25 Hz is about 20 MB. A gps.six
 * streams through (memory stays flat whatever its size), so its limit is generous.
 */
export const MAX_UPLOAD_BYTES: Record<SixKind, number> = { lap: MAX_LAP_SIX_BYTES, gps: 128 * 1024 * 1024 };

/** A track session's id and blob folder: the spec's `{hardware}/{track}/{ddmmyyyy}`. */
export function sessionKey(deviceId: string, track: string, date: string): string {
  return `${deviceId}/${track}/${date}`;
}

/**
 * Parsed GPS columns, gzipped, derived from one exact gps.six: the name carries that file's md5,
 * so a reader can never get columns of another version. Hidden ('.derived') from listings.
 */
export function gpsColumnsKey(sessionId: string, gpsMd5: string): string {
  return `${sessionId}/.derived/gps-${Buffer.from(gpsMd5, 'base64').toString('hex')}.cols.gz`;
}

/** Another file made from a session's files (`name`: a plain file name), hidden beside its GPS columns. */
export function derivedKey(sessionId: string, name: string): string {
  return `${sessionId}/.derived/${name}`;
}

/** Validates what becomes part of a storage key: 400 with a clear reason. */
export function assertSessionAddress(track: string, date: string): void {
  if (!isValidTrackName(track))
    throw new AppError(
      'storage/invalid-argument',
      'Invalid track name: 1-64 letters, digits, spaces, "-", "_" or "."; no "/", ".." or control characters.',
    );
  if (!isDdmmyyyy(date))
    throw new AppError('storage/invalid-argument', 'Invalid date: expected a real calendar date as ddmmyyyy.');
}

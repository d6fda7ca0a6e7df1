import type { ImportedTrace } from './trace';

/**
 * Hours a place's clock is ahead of UTC, from its longitude (15° an hour). Files in the logger's
 * local time name no zone; this is right to the hour for most tracks (not for summer time, or a
 * zone far from its meridian), and the day, which is what names a session, almost always.
 */
export function utcOffsetHours(lon: number): number {
  return Math.round(lon / 15);
}

/** A trace timed in the logger's local clock, moved to UTC by where it was recorded. */
export function localToUtcMs(trace: ImportedTrace): ImportedTrace {
  if (trace.count === 0) return trace;
  const shift = utcOffsetHours(trace.lon[0]!) * 3_600_000;
  for (let i = 0; i < trace.count; i++) trace.timeMs[i] = trace.timeMs[i]! - shift;
  return trace;
}

/** The local calendar day at the place a trace starts: what the session is named by. */
export function localDay(trace: ImportedTrace): { y: number; m: number; d: number } {
  const at = new Date(trace.timeMs[0]! + utcOffsetHours(trace.lon[0]!) * 3_600_000);
  return { y: at.getUTCFullYear(), m: at.getUTCMonth() + 1, d: at.getUTCDate() };
}

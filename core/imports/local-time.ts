/**
 * The local clock of the place a recording was made. Files in the logger's local time name no
 * zone: the place's IANA zone comes from the tz database's boundaries by coordinates
 * (@photostructure/tz-lookup, offline, ~29 KB gzipped), and its offset at that instant, summer
 * time included, from Intl (the runtime's own tz database). Grattan in August is UTC-4, not the
 * UTC-6 that 15° of longitude an hour would make it.
 */
import tzLookup from '@photostructure/tz-lookup';
import type { ImportedTrace } from './trace';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The place's IANA time zone ('America/Detroit'); at sea, or for coordinates it cannot place, the nautical zone. */
export function timeZoneAt(lat: number, lon: number): string {
  try {
    return tzLookup(lat, lon);
  } catch {
    // Only for coordinates out of range (a trace's are checked on reading): the meridian's zone.
    const h = Number.isFinite(lon) ? Math.max(-12, Math.min(12, Math.round(lon / 15))) : 0;
    return h === 0 ? 'Etc/GMT' : `Etc/GMT${h > 0 ? '-' : '+'}${Math.abs(h)}`;
  }
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** Ms the zone's clock is ahead of UTC at that instant (summer time included). */
function utcOffsetMs(timeZone: string, utcMs: number): number {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(timeZone, format);
  }
  const at = Math.floor(utcMs / 1000) * 1000;
  const p: Record<string, number> = {};
  for (const { type, value } of format.formatToParts(at)) if (type !== 'literal') p[type] = Number(value);
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - at;
}

/** Hours the clock at a place is ahead of UTC at that instant (-4 at Grattan in August, 8 at Tianma). */
export function utcOffsetHours(lat: number, lon: number, utcMs: number): number {
  return utcOffsetMs(timeZoneAt(lat, lon), utcMs) / HOUR_MS;
}

/** The place's wall clock at a UTC instant, as ms that read as UTC (`getUTCHours` gives the local hour). */
export function utcToLocalClockMs(utcMs: number, lat: number, lon: number): number {
  return utcMs + utcOffsetMs(timeZoneAt(lat, lon), utcMs);
}

/**
 * The UTC instant of a wall-clock time at a place (ms that read as UTC): the offset in force at
 * that instant (found from the offset at the clock's own reading; only an hour summer time skips
 * or repeats, at night, can read otherwise).
 */
export function localClockToUtcMs(localMs: number, lat: number, lon: number): number {
  const zone = timeZoneAt(lat, lon);
  return localMs - utcOffsetMs(zone, localMs - utcOffsetMs(zone, localMs));
}

/**
 * A trace timed in the logger's local clock, moved to UTC by where and when it was recorded: one
 * shift for the whole file, its start's (a logger's times are its start plus time elapsed).
 */
export function localToUtcMs(trace: ImportedTrace): ImportedTrace {
  if (trace.count === 0) return trace;
  const shift = trace.timeMs[0]! - localClockToUtcMs(trace.timeMs[0]!, trace.lat[0]!, trace.lon[0]!);
  for (let i = 0; i < trace.count; i++) trace.timeMs[i] = trace.timeMs[i]! - shift;
  return trace;
}

/** The local calendar day at the place a trace starts: what the session is named by. */
export function localDay(trace: ImportedTrace): { y: number; m: number; d: number } {
  const at = new Date(utcToLocalClockMs(trace.timeMs[0]!, trace.lat[0]!, trace.lon[0]!));
  return { y: at.getUTCFullYear(), m: at.getUTCMonth() + 1, d: at.getUTCDate() };
}

/**
 * When a session's first fix was (ms since the epoch), from the session's date and that fix's UTC
 * time of day (what its gps.six holds). A device's date is that fix's UTC day; an import's is the
 * local day at the track (localDay), the UTC day before or after where the two differ (9:00 at
 * Phillip Island in January is 22:00 UTC the day before): `at`, the fix's place, for an import.
 */
export function sessionStartUtcMs(
  day: { y: number; m: number; d: number },
  timeOfDayMs: number,
  at?: { lat: number; lon: number },
): number {
  const utc = Date.UTC(day.y, day.m - 1, day.d) + timeOfDayMs;
  if (!at) return utc;
  for (const shift of [0, -DAY_MS, DAY_MS]) {
    const local = new Date(utcToLocalClockMs(utc + shift, at.lat, at.lon));
    if (local.getUTCFullYear() === day.y && local.getUTCMonth() + 1 === day.m && local.getUTCDate() === day.d)
      return utc + shift;
  }
  return utc;
}

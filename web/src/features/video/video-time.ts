/**
 * The one clock between a video and a session: each GPS sample's UTC time, and the mappings
 * cursor (a sample) ↔ video time through a sync (core/video/sync.ts). Pure; no DOM.
 */
import { elapsedMs } from '#core/analysis/gps-analysis.ts';
import { isImportCollection } from '#core/contracts/session-paths.ts';
import { parseDdmmyyyy } from '#core/formats/dates.ts';
import type { GpsColumns } from '#core/formats/gps-columns.ts';
import { sessionStartUtcMs, utcToLocalClockMs } from '#core/imports/local-time.ts';
import { videoToSession, type SessionTrace, type VideoSync } from '#core/video/sync.ts';

type Clock = Pick<VideoSync, 'offsetMs' | 'driftPpm'>;

/** Past this distance from the nearest fix a time is off the trace (a gap, or outside the session). */
const OFF_TRACE_MS = 2_000;

/**
 * Each sample's time in ms since the epoch (UTC). The columns hold the UTC time of day; the day
 * is the session's date (ddmmyyyy) for the first sample (an import's: the local day at `at`, its
 * first fix, see sessionStartUtcMs), and a session that crosses midnight UTC carries on into the next day.
 */
export function sessionUtcTimes(c: Pick<GpsColumns, 'count' | 'timeMs'>, date: string, at?: Place): Float64Array {
  const out = new Float64Array(c.count);
  const day = parseDdmmyyyy(date);
  if (!day || c.count === 0) return out;
  let t = sessionStartUtcMs(day, c.timeMs[0]!, at);
  out[0] = t;
  for (let i = 1; i < c.count; i++) out[i] = t += elapsedMs(c.timeMs[i - 1]!, c.timeMs[i]!);
  return out;
}

/** A session's samples' UTC times: an import's date is the local day where it was ridden, a device's the UTC day. */
export function sessionUtcTimesOf(
  c: Pick<GpsColumns, 'count' | 'timeMs' | 'lat' | 'lon'>,
  session: { device: string; date: string },
): Float64Array {
  const at = isImportCollection(session.device) && c.count ? { lat: c.lat[0]!, lon: c.lon[0]! } : undefined;
  return sessionUtcTimes(c, session.date, at);
}

/** The session as the video's sync reads it: its fixes at their UTC times. */
export function sessionTrace(c: GpsColumns, utc: Float64Array): SessionTrace {
  const n = c.count;
  return { count: n, lat: c.lat.slice(0, n), lon: c.lon.slice(0, n), timeMs: utc, speed: c.speed.slice(0, n) };
}

/** The sample nearest to `utcMs`, or null when no fix lies within 2 s of it. */
export function sampleAtUtc(utc: Float64Array, utcMs: number): number | null {
  const n = utc.length;
  if (n === 0) return null;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (utc[mid]! < utcMs) lo = mid + 1;
    else hi = mid;
  }
  const best = lo > 0 && utcMs - utc[lo - 1]! < utc[lo]! - utcMs ? lo - 1 : lo;
  return Math.abs(utc[best]! - utcMs) <= OFF_TRACE_MS ? best : null;
}

/** The cursor while the video plays: the sample shown at `videoMs`, or null off the trace. */
export function sampleForVideo(sync: Clock, utc: Float64Array, videoMs: number): number | null {
  return sampleAtUtc(utc, videoToSession(sync, videoMs));
}

export type Coverage = 'whole' | 'part' | 'outside' | 'other-day';

/**
 * How a video's span meets the session's: the whole session, part of it, none of it on the same
 * day, or another day altogether (more than 12 h away: whatever the time zone, not that day's riding).
 */
export function coverageOf(
  span: { fromMs: number; toMs: number },
  session: { fromMs: number; toMs: number },
): Coverage {
  if (span.fromMs <= session.fromMs && span.toMs >= session.toMs) return 'whole';
  if (span.toMs > session.fromMs && span.fromMs < session.toMs) return 'part';
  const away = span.toMs <= session.fromMs ? session.fromMs - span.toMs : span.fromMs - session.toMs;
  return away > 12 * 3_600_000 ? 'other-day' : 'outside';
}

/** The sample of `lap` nearest to a place (a corner's apex): where the video jumps for "T7". */
export function sampleNearest(
  c: Pick<GpsColumns, 'lat' | 'lon'>,
  lap: { start: number; end: number },
  at: { lat: number; lon: number },
): number {
  const k = Math.cos((at.lat * Math.PI) / 180);
  let best = lap.start;
  let bestD = Infinity;
  for (let i = lap.start; i < lap.end; i++) {
    const d = (c.lat[i]! - at.lat) ** 2 + ((c.lon[i]! - at.lon) * k) ** 2;
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

/** Where the session was ridden: its clock is the one the camera and the watch showed there. */
export interface Place {
  lat: number;
  lon: number;
}

/**
 * hh:mm:ss of a UTC time on the track's clock (its time zone, summer time included), not the
 * browser's: a rider looking at a ride abroad, or at home after it, sees the times of the day there.
 */
export function clockTime(utcMs: number, at: Place): string {
  const d = new Date(utcToLocalClockMs(utcMs, at.lat, at.lon));
  return [d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()].map((v) => String(v).padStart(2, '0')).join(':');
}

/** dd/mm/yyyy of a UTC time on the track's clock. */
export function clockDate(utcMs: number, at: Place): string {
  const d = new Date(utcToLocalClockMs(utcMs, at.lat, at.lon));
  return (
    [d.getUTCDate(), d.getUTCMonth() + 1].map((n) => String(n).padStart(2, '0')).join('/') + `/${d.getUTCFullYear()}`
  );
}

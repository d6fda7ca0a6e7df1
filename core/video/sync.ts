/**
 * Lines a video up with a session's GPS trace: session UTC ms = video ms + offsetMs, plus the
 * camera clock's drift. Automatic methods in order, the first that works: the video's own GPS
 * (GPMF) matched to the trace, then its creation time read as UTC or as local time at the track.
 * Otherwise null, and the rider marks moments by hand (manualSync).
 */
import { AppError } from '../errors';
import { utcOffsetHours } from '../imports/local-time';
import { makeProjection } from '../sim/geo';
import type { VideoFix, VideoTelemetry } from './gpmf';

/** A session's GPS trace as the analysis page holds it (speed in km/h, time in UTC ms). */
export interface SessionTrace {
  count: number;
  lat: Float64Array;
  lon: Float64Array;
  timeMs: Float64Array;
  speed: Float64Array;
}

type SyncMethod = 'gpmf' | 'clock' | 'manual';

export interface VideoSync {
  /** session UTC ms = video ms + offsetMs (+ drift). */
  offsetMs: number;
  /** How much faster the camera's clock ran than UTC, parts per million. */
  driftPpm: number;
  method: SyncMethod;
  /** Expected error of a session time found from a video time, ms (one standard deviation). */
  errorMs: number;
}

export function videoToSession(sync: Pick<VideoSync, 'offsetMs' | 'driftPpm'>, videoMs: number): number {
  return videoMs + sync.offsetMs + (videoMs * sync.driftPpm) / 1e6;
}

export function sessionToVideo(sync: Pick<VideoSync, 'offsetMs' | 'driftPpm'>, sessionUtcMs: number): number {
  return (sessionUtcMs - sync.offsetMs) / (1 + sync.driftPpm / 1e6);
}

/** Drift is fitted only over a clip this long; shorter, the GPS time stamps' jitter would dominate it. */
const DRIFT_MIN_SPAN_MS = 60_000;
/** A camera crystal is within ±100 ppm; a larger fit is noise or a broken clip. */
const MAX_DRIFT_PPM = 500;
/** Camera and logger GPS positions together, one standard deviation (m). */
const POSITION_SIGMA_M = 3;
const SPEED_SIGMA_KMH = 3;
/** Beyond this a fix matches nothing on the trace; capped so one bad fix cannot steer the match. */
const POSITION_CAP_M = 30;
const SPEED_CAP_KMH = 30;
/** A trace gap longer than this (lost signal, the bike in the pits) is not interpolated across. */
const TRACE_GAP_MS = 2_000;
const SEARCH_STEP_MS = 10;
/** Median distance beyond which the video's positions are not on this trace at all. */
const NOT_HERE_M = 25;
/** Cameras' clocks are set by hand or from a phone: commonly seconds, at times tens of seconds off. */
const CLOCK_ERROR_MS = 30_000;
/** A rider's mark, paused on a frame: a frame or two and the moment's own blur. */
const MANUAL_ERROR_MS = 100;

function spanOf(trace: SessionTrace): { fromMs: number; toMs: number } {
  return { fromMs: trace.timeMs[0]!, toMs: trace.timeMs[trace.count - 1]! };
}

function overlapMs(a: { fromMs: number; toMs: number }, b: { fromMs: number; toMs: number }): number {
  return Math.min(a.toMs, b.toMs) - Math.max(a.fromMs, b.fromMs);
}

function localDay(utcMs: number, hours: number): number {
  return Math.floor((utcMs + hours * 3_600_000) / 86_400_000);
}

/**
 * Where the video falls on the session's clock: over the session, or on another day (the page
 * says so); null when it is of the same day at another time, so not of this session.
 */
function placed(
  clock: { offsetMs: number; driftPpm: number },
  durationMs: number,
  trace: SessionTrace,
  hours: number,
): 'over' | 'other-day' | null {
  const video = { fromMs: videoToSession(clock, 0), toMs: videoToSession(clock, durationMs) };
  const session = spanOf(trace);
  if (overlapMs(video, session) > 0) return 'over';
  if (localDay(video.fromMs, hours) !== localDay(session.fromMs, hours)) return 'other-day';
  return null;
}

/** UTC against video time over the fixes: the offset, and the drift where the clip is long enough to show it. */
function clockFromFixes(fixes: VideoFix[]): { offsetMs: number; driftPpm: number } {
  const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1]!;
  const span = fixes[fixes.length - 1]!.videoMs - fixes[0]!.videoMs;
  if (span >= DRIFT_MIN_SPAN_MS) {
    const n = fixes.length;
    const mx = fixes.reduce((s, f) => s + f.videoMs, 0) / n;
    const my = fixes.reduce((s, f) => s + f.utcMs, 0) / n;
    let sxy = 0;
    let sxx = 0;
    for (const f of fixes) {
      sxy += (f.videoMs - mx) * (f.utcMs - my);
      sxx += (f.videoMs - mx) ** 2;
    }
    const driftPpm = (sxy / sxx - 1) * 1e6;
    if (Math.abs(driftPpm) <= MAX_DRIFT_PPM) {
      return { offsetMs: median(fixes.map((f) => f.utcMs - f.videoMs * (1 + driftPpm / 1e6))), driftPpm };
    }
  }
  return { offsetMs: median(fixes.map((f) => f.utcMs - f.videoMs)), driftPpm: 0 };
}

/** First index whose time is >= t (count when none). */
function lowerBound(times: Float64Array, count: number, t: number): number {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid]! < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The shift of the GPS-time sync that lays the video's fixes best on the trace, by position and
 * speed, weighed against the GPS clock's own error (a slow clip moves too little to say more than
 * its clock does). Returns the shift and its standard deviation, or null where the positions are
 * not on this trace.
 */
function refineOnTrace(
  fixes: VideoFix[],
  clock: { offsetMs: number; driftPpm: number },
  trace: SessionTrace,
  priorMs: number,
): { shiftMs: number; sigmaMs: number } | null {
  const windowMs = Math.max(2_000, 4 * priorMs);
  const reach = windowMs + 2 * SEARCH_STEP_MS; // the parabola looks one step past the window
  const { fromMs, toMs } = spanOf(trace);
  const usable = fixes
    .map((f) => ({ f, at: videoToSession(clock, f.videoMs) }))
    .filter(({ at }) => at - reach >= fromMs && at + reach <= toMs);
  if (usable.length < 5) return null;
  const proj = makeProjection(trace.lat[0]!, trace.lon[0]!);
  const fx = usable.map(({ f }) => proj.toXY(f.lat, f.lon));
  // The trace in metres, only where the video can fall.
  const first = Math.max(0, lowerBound(trace.timeMs, trace.count, usable[0]!.at - reach) - 1);
  const last = Math.min(trace.count, lowerBound(trace.timeMs, trace.count, usable[usable.length - 1]!.at + reach) + 1);
  const tx = new Float64Array(last - first);
  const ty = new Float64Array(last - first);
  for (let j = first; j < last; j++) [tx[j - first], ty[j - first]] = proj.toXY(trace.lat[j]!, trace.lon[j]!);
  // Fixes come at 4–18 Hz but their errors stay alike for about a second: weigh them as one a second.
  const seconds = Math.max(1, (usable[usable.length - 1]!.at - usable[0]!.at) / 1000);
  const weight = Math.min(1, seconds / usable.length);

  const distances: number[] = [];
  const cost = (shiftMs: number, keep = false): number => {
    let sum = (shiftMs / priorMs) ** 2;
    for (let i = 0; i < usable.length; i++) {
      const t = usable[i]!.at + shiftMs;
      const j = Math.max(1, lowerBound(trace.timeMs, trace.count, t));
      const t0 = trace.timeMs[j - 1]!;
      const t1 = trace.timeMs[j]!;
      let d = POSITION_CAP_M;
      let dv = SPEED_CAP_KMH;
      if (t1 - t0 <= TRACE_GAP_MS) {
        const k = t1 > t0 ? (t - t0) / (t1 - t0) : 0;
        const x0 = tx[j - 1 - first]!;
        const y0 = ty[j - 1 - first]!;
        d = Math.hypot(x0 + k * (tx[j - first]! - x0) - fx[i]![0], y0 + k * (ty[j - first]! - y0) - fx[i]![1]);
        d = Math.min(POSITION_CAP_M, d);
        const v = trace.speed[j - 1]! + k * (trace.speed[j]! - trace.speed[j - 1]!);
        dv = Math.min(SPEED_CAP_KMH, Math.abs(v - usable[i]!.f.speedKmh));
      }
      if (keep) distances.push(d);
      sum += weight * ((d / POSITION_SIGMA_M) ** 2 + (dv / SPEED_SIGMA_KMH) ** 2);
    }
    return sum;
  };

  let best = 0;
  let bestCost = Infinity;
  for (let s = -windowMs; s <= windowMs; s += SEARCH_STEP_MS) {
    const c = cost(s);
    if (c < bestCost) [best, bestCost] = [s, c];
  }
  // A parabola through the best step and its neighbours: the minimum between steps, and the curvature.
  const h = SEARCH_STEP_MS;
  const left = cost(best - h);
  const right = cost(best + h);
  const curvature = (left - 2 * bestCost + right) / (h * h);
  const shiftMs = curvature > 0 ? best + (h * (left - right)) / (2 * (left - 2 * bestCost + right)) : best;
  cost(shiftMs, true);
  distances.sort((a, b) => a - b);
  if (distances[distances.length >> 1]! > NOT_HERE_M) return null;
  // cost ≈ (shift − best)² / σ² near the minimum, so σ = √(2 / cost'').
  const sigmaMs = curvature > 0 ? Math.sqrt(2 / curvature) : priorMs;
  return { shiftMs, sigmaMs: Math.min(sigmaMs, priorMs) };
}

/** The video's GPS matched to the trace; 'absent' when it has no GPS, null when its GPS says it is not of this session. */
function syncByGps(telemetry: VideoTelemetry, trace: SessionTrace, hours: number): VideoSync | null | 'absent' {
  const fixes = telemetry.fixes;
  if (fixes.length < 2) return 'absent';
  const priorMs = telemetry.gpsClock?.errorMs ?? 1_000;
  const clock = clockFromFixes(fixes);
  const where = placed(clock, telemetry.durationMs, trace, hours);
  if (!where) return null;
  if (where === 'other-day') return { ...clock, method: 'gpmf', errorMs: Math.round(priorMs) };
  const refined = refineOnTrace(fixes, clock, trace, priorMs);
  const offsetMs = clock.offsetMs + (refined?.shiftMs ?? 0);
  const errorMs = Math.max(1, Math.round(refined?.sigmaMs ?? priorMs));
  return { offsetMs, driftPpm: clock.driftPpm, method: 'gpmf', errorMs };
}

/**
 * The MP4's creation time, as UTC and as the track's local time (cameras mostly write local):
 * whichever puts the video over the session. A creation time that puts it on another day says so.
 */
function syncByClock(telemetry: VideoTelemetry, trace: SessionTrace, hours: number): VideoSync | null {
  if (telemetry.creationTimeMs === null) return null;
  const asLocal = telemetry.creationTimeMs - hours * 3_600_000;
  const asUtc = telemetry.creationTimeMs;
  const session = spanOf(trace);
  const covered = (offsetMs: number) => overlapMs({ fromMs: offsetMs, toMs: offsetMs + telemetry.durationMs }, session);
  const offsetMs = covered(asUtc) > covered(asLocal) ? asUtc : asLocal;
  const where = placed({ offsetMs, driftPpm: 0 }, telemetry.durationMs, trace, hours);
  return where ? { offsetMs, driftPpm: 0, method: 'clock', errorMs: CLOCK_ERROR_MS } : null;
}

/**
 * Syncs one video file to a session's trace; null when no automatic method works (then manual).
 * The chapters of one recording (a GoPro splits at 4 GB) are synced each on its own: each starts its own clock.
 */
export function syncVideo(telemetry: VideoTelemetry, trace: SessionTrace): VideoSync | null {
  if (trace.count < 2) return null;
  const hours = utcOffsetHours(trace.lat[0]!, trace.lon[0]!, trace.timeMs[0]!);
  const byGps = syncByGps(telemetry, trace, hours);
  // A video with GPS time that is not of this session is not made one by its (less sure) clock.
  if (byGps !== 'absent') return byGps;
  return syncByClock(telemetry, trace, hours);
}

/**
 * A sync from moments the rider marked: one gives the offset, two the offset and the clock's
 * drift (say the first and last crossing of the line).
 */
export function manualSync(marks: { videoMs: number; sessionUtcMs: number }[]): VideoSync {
  if (
    marks.length < 1 ||
    marks.length > 2 ||
    marks.some((m) => !Number.isFinite(m.videoMs) || !Number.isFinite(m.sessionUtcMs))
  ) {
    throw new AppError('video/bad-marks', 'Mark one moment or two.');
  }
  let offsetMs = marks[0]!.sessionUtcMs - marks[0]!.videoMs;
  let driftPpm = 0;
  if (marks.length === 2) {
    const [a, b] = marks as [(typeof marks)[0], (typeof marks)[0]];
    const slope = (b.sessionUtcMs - a.sessionUtcMs) / (b.videoMs - a.videoMs);
    driftPpm = (slope - 1) * 1e6;
    // Two marks too close together (or swapped) give a drift no camera clock has.
    if (!Number.isFinite(driftPpm) || Math.abs(driftPpm) > MAX_DRIFT_PPM) {
      throw new AppError('video/bad-marks', 'These marks give an impossible clock drift.');
    }
    offsetMs = a.sessionUtcMs - a.videoMs * slope;
  }
  return { offsetMs, driftPpm, method: 'manual', errorMs: MANUAL_ERROR_MS };
}

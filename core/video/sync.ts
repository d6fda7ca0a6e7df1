/**
 * Lines a video up with a session's GPS trace: session UTC ms = video ms + offsetMs, plus the
 * camera clock's drift. Automatic methods in order, the first that works: the video's own GPS
 * (GPMF) matched to the trace, then its creation time read as UTC or as local time at the track.
 * Otherwise null, and the rider marks moments by hand (manualSync).
 */
import { AppError } from '../errors';
import { utcOffsetHours } from '../imports/local-time';
import { makeProjection } from '../geo';
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
/** Where the video's positions are looked for around the camera's GPS clock: a logger's clock set by hand, or GPS time written as UTC (18 s ahead). */
const SEARCH_WINDOW_MS = 40_000;
const COARSE_STEP_MS = 100;
/** The coarse search's fixes, spread over the clip (a 12-minute chapter at 18 Hz has 13 000). */
const COARSE_MAX_FIXES = 600;
/** The share of the video that must fall on the trace for a shift to count. */
const MIN_ON_TRACE = 0.6;
/** Two coarse steps either side: the coarse best on a few hundred fixes is within one of the best on all. */
const FINE_WINDOW_MS = 200;
const FINE_STEP_MS = 10;
/** Beyond the match's own spread: where in a GPS payload a fix was taken, and a frame. */
const FIX_TIMING_MS = 20;
/** A sync the positions did not check: a logger's clock is commonly within a second of UTC. */
const UNMATCHED_ERROR_MS = 1_000;
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

/** A fix placed on the session's clock by the camera's GPS time, in metres on the trace's plane. */
interface PlacedFix {
  at: number;
  x: number;
  y: number;
  speedKmh: number;
}

/** A fix's distance from the trace (m) and speed difference (km/h), both capped. */
interface Gap {
  d: number;
  dv: number;
}

/**
 * How far a fix is from where the trace was at `t`, in position and speed (capped, so one bad fix
 * cannot steer a match), written into `out` (called millions of times: no garbage); false where
 * the trace has no position then (before it, after it, a gap).
 */
function traceGap(trace: SessionTrace, tx: Float64Array, ty: Float64Array, fix: PlacedFix, t: number, out: Gap) {
  const j = lowerBound(trace.timeMs, trace.count, t);
  if (j === 0 || j >= trace.count) return false;
  const t0 = trace.timeMs[j - 1]!;
  const t1 = trace.timeMs[j]!;
  if (t1 - t0 > TRACE_GAP_MS) return false;
  const k = t1 > t0 ? (t - t0) / (t1 - t0) : 0;
  const x = tx[j - 1]! + k * (tx[j]! - tx[j - 1]!);
  const y = ty[j - 1]! + k * (ty[j]! - ty[j - 1]!);
  const v = trace.speed[j - 1]! + k * (trace.speed[j]! - trace.speed[j - 1]!);
  out.d = Math.min(POSITION_CAP_M, Math.hypot(x - fix.x, y - fix.y));
  out.dv = Math.min(SPEED_CAP_KMH, Math.abs(v - fix.speedKmh));
  return true;
}

const misfit = (g: Gap) => (g.d / POSITION_SIGMA_M) ** 2 + (g.dv / SPEED_SIGMA_KMH) ** 2;

/**
 * The shift of the camera's GPS-time sync that lays the video's fixes best on the trace, by
 * position and speed alone: the logger's clock is not trusted (set by hand, or GPS time written
 * as UTC, GPS time's leap seconds ahead). First a coarse search (COARSE_STEP_MS over
 * ±SEARCH_WINDOW_MS, on at most COARSE_MAX_FIXES fixes) where most of the video falls on the
 * trace; then a fine one (FINE_STEP_MS within FINE_WINDOW_MS of the best) on every fix. Returns
 * the shift and its standard deviation, or null where the positions are not on this trace.
 */
function matchOnTrace(
  fixes: VideoFix[],
  clock: { offsetMs: number; driftPpm: number },
  trace: SessionTrace,
): { shiftMs: number; sigmaMs: number } | null {
  const proj = makeProjection(trace.lat[0]!, trace.lon[0]!);
  const tx = new Float64Array(trace.count);
  const ty = new Float64Array(trace.count);
  for (let j = 0; j < trace.count; j++) [tx[j], ty[j]] = proj.toXY(trace.lat[j]!, trace.lon[j]!);
  const placed: PlacedFix[] = fixes.map((f) => {
    const [x, y] = proj.toXY(f.lat, f.lon);
    return { at: videoToSession(clock, f.videoMs), x, y, speedKmh: f.speedKmh };
  });

  // Coarse: the mean misfit of the fixes that fall on the trace, where most of them do.
  const stride = Math.max(1, Math.ceil(placed.length / COARSE_MAX_FIXES));
  const sparse = placed.filter((_, i) => i % stride === 0);
  const g: Gap = { d: 0, dv: 0 };
  const coarse = (shiftMs: number): number => {
    let sum = 0;
    let n = 0;
    for (const p of sparse) {
      if (!traceGap(trace, tx, ty, p, p.at + shiftMs, g)) continue;
      sum += misfit(g);
      n++;
    }
    return n >= Math.max(5, MIN_ON_TRACE * sparse.length) ? sum / n : Infinity;
  };
  let start = 0;
  let startCost = Infinity;
  for (let s = -SEARCH_WINDOW_MS; s <= SEARCH_WINDOW_MS; s += COARSE_STEP_MS) {
    const c = coarse(s);
    // Ties go to the shift nearer the camera's clock.
    if (c < startCost || (c === startCost && Math.abs(s) < Math.abs(start))) [start, startCost] = [s, c];
  }
  if (startCost === Infinity) return null;

  // Fine: every fix that stays on the trace over the whole fine window, each second weighed as one
  // fix (fixes come at 4–18 Hz but their errors stay alike for about a second).
  const reach = FINE_WINDOW_MS + 2 * FINE_STEP_MS; // the parabola looks one step past the window
  const { fromMs, toMs } = spanOf(trace);
  const usable = placed.filter((p) => p.at + start - reach >= fromMs && p.at + start + reach <= toMs);
  if (usable.length < 5) return null;
  const seconds = Math.max(1, (usable[usable.length - 1]!.at - usable[0]!.at) / 1000);
  const weight = Math.min(1, seconds / usable.length);
  const fine = (shiftMs: number, distances?: number[]): number => {
    let sum = 0;
    for (const p of usable) {
      if (!traceGap(trace, tx, ty, p, p.at + shiftMs, g)) [g.d, g.dv] = [POSITION_CAP_M, SPEED_CAP_KMH];
      distances?.push(g.d);
      sum += weight * misfit(g);
    }
    return sum;
  };
  let best = start;
  let bestCost = Infinity;
  for (let s = start - FINE_WINDOW_MS; s <= start + FINE_WINDOW_MS; s += FINE_STEP_MS) {
    const c = fine(s);
    if (c < bestCost) [best, bestCost] = [s, c];
  }
  // A parabola through the best step and its neighbours: the minimum between steps, and the curvature.
  const h = FINE_STEP_MS;
  const left = fine(best - h);
  const right = fine(best + h);
  const curvature = (left - 2 * bestCost + right) / (h * h);
  const shiftMs = curvature > 0 ? best + (h * (left - right)) / (2 * (left - 2 * bestCost + right)) : best;
  const distances: number[] = [];
  fine(shiftMs, distances);
  distances.sort((a, b) => a - b);
  if (distances[distances.length >> 1]! > NOT_HERE_M) return null;
  // cost ≈ (shift − best)² / σ² near the minimum, so σ = √(2 / cost'').
  return { shiftMs, sigmaMs: curvature > 0 ? Math.sqrt(2 / curvature) : Infinity };
}

/** The video's GPS matched to the trace; 'absent' when it has no GPS, null when its GPS says it is not of this session. */
function syncByGps(telemetry: VideoTelemetry, trace: SessionTrace, hours: number): VideoSync | null | 'absent' {
  const fixes = telemetry.fixes;
  if (fixes.length < 2) return 'absent';
  const priorMs = telemetry.gpsClock?.errorMs ?? 1_000;
  const clock = clockFromFixes(fixes);
  const where = placed(clock, telemetry.durationMs, trace, hours);
  if (!where) return null;
  // Another day: no position to match; the camera's clock alone says where, and that it is not this session.
  if (where === 'other-day') return { ...clock, method: 'gpmf', errorMs: Math.round(priorMs) };
  const match = matchOnTrace(fixes, clock, trace);
  if (!match || match.sigmaMs > UNMATCHED_ERROR_MS) {
    // Not matched by position (off the trace, or standing still): the camera's GPS clock, with the
    // logger's clock unchecked.
    return { ...clock, method: 'gpmf', errorMs: Math.max(Math.round(priorMs), UNMATCHED_ERROR_MS) };
  }
  const offsetMs = clock.offsetMs + match.shiftMs;
  const errorMs = Math.max(1, Math.round(Math.hypot(match.sigmaMs, FIX_TIMING_MS)));
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

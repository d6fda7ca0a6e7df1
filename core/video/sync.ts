/**
 * STAND-IN (video-ui branch): the video-sync helper writes the real module; the merge drops this
 * commit. Signatures as in notes/video-contract.md; the pure arithmetic (manual sync and the two
 * mappings) is real, automatic sync throws.
 */
import type { VideoTelemetry } from './gpmf';

export interface VideoSync {
  /** session UTC ms = video ms + offsetMs (at the video's start; drift adds along it). */
  offsetMs: number;
  driftPpm: number;
  method: 'gpmf' | 'clock' | 'manual';
  errorMs: number;
  /** Session UTC span the video covers. */
  coverage: { fromMs: number; toMs: number };
  note: 'whole' | 'part' | 'other-day' | 'chapters';
}

export interface SyncTrace {
  count: number;
  lat: Float64Array;
  lon: Float64Array;
  /** ms since epoch, UTC */
  timeMs: Float64Array;
  speed: Float64Array;
}

export function syncVideo(_telemetry: VideoTelemetry, _trace: SyncTrace, _options?: { utcOffsetHoursAtTrack?: number }): VideoSync | null {
  throw new Error('stand-in: syncVideo comes with the video-sync helper');
}

/** Expected error of a mark made by eye while the video plays (about two frames at 30 fps and a reaction). */
const MANUAL_ERROR_MS = 100;

/** One mark: an offset. Two: offset and drift (the camera's clock against the GPS's). */
export function manualSync(marks: { videoMs: number; sessionUtcMs: number }[]): VideoSync {
  if (marks.length === 0) throw new RangeError('manualSync needs at least one mark');
  const sorted = [...marks].sort((a, b) => a.videoMs - b.videoMs);
  const first = sorted[0]!;
  const last = sorted[sorted.length - 1]!;
  const span = last.videoMs - first.videoMs;
  const rate = sorted.length > 1 && span > 0 ? (last.sessionUtcMs - first.sessionUtcMs) / span : 1;
  const driftPpm = (rate - 1) * 1e6;
  const offsetMs = first.sessionUtcMs - first.videoMs * rate;
  return { offsetMs, driftPpm, method: 'manual', errorMs: MANUAL_ERROR_MS, coverage: { fromMs: offsetMs, toMs: offsetMs }, note: 'whole' };
}

export function videoToSession(sync: Pick<VideoSync, 'offsetMs' | 'driftPpm'>, videoMs: number): number {
  return sync.offsetMs + videoMs * (1 + sync.driftPpm / 1e6);
}

export function sessionToVideo(sync: Pick<VideoSync, 'offsetMs' | 'driftPpm'>, sessionUtcMs: number): number {
  return (sessionUtcMs - sync.offsetMs) / (1 + sync.driftPpm / 1e6);
}

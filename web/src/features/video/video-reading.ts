/**
 * What a picked video says of itself: its fingerprint (to find a sync kept for it), its
 * telemetry (GoPro GPMF: GPS time and position; codec; duration) and the sync computed from it.
 * Runs in a worker (video-sync-worker.ts) by the page; each step may fail on its own, and what
 * did not fail is kept (a video without GPS is still played and synced by hand).
 */
import { fingerprint, readVideoTelemetry, type VideoTelemetry } from '#core/video/gpmf.ts';
import { syncVideo, type SessionTrace, type VideoSync } from '#core/video/sync.ts';
import { blobSource } from './byte-source';

export interface VideoReading {
  fingerprint: string | null;
  telemetry: VideoTelemetry | null;
  sync: VideoSync | null;
  /** Why the telemetry could not be read (for the console; the rider is told plainly). */
  failure: string | null;
}

const reason = (err: unknown) => (err instanceof Error ? err.message : String(err));

export async function readVideo(file: Blob, trace: SessionTrace | null): Promise<VideoReading> {
  const source = blobSource(file);
  const out: VideoReading = { fingerprint: null, telemetry: null, sync: null, failure: null };
  try {
    out.fingerprint = await fingerprint(source);
  } catch (err) {
    out.failure = reason(err);
  }
  try {
    out.telemetry = await readVideoTelemetry(source);
    if (trace && trace.count > 0) out.sync = syncVideo(out.telemetry, trace);
  } catch (err) {
    out.failure = reason(err);
  }
  return out;
}

export type VideoReadingRequest = { files: Blob[]; trace: SessionTrace | null };

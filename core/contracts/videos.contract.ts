import { z } from 'zod';
import { sessionParamsSchema } from './sessions.contract';

/** Syncs one rider may keep per session (the files of several days' cameras, chapters, retakes). */
export const MAX_VIDEO_SYNCS_PER_SESSION = 50;

/** A video file's sync with a session, without the file: what the server keeps of it. */
export const videoSyncSchema = z.object({
  /** A UUID the rider's browser made for this file. */
  id: z.uuid(),
  /** The file's name as the rider's device gave it. */
  name: z.string().min(1).max(255),
  size: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  /** SHA-256 (hex) of the file's first and last MiB and its size (core/video/gpmf.ts `fingerprint`). */
  fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
  /** session UTC ms = video ms + offsetMs (+ drift). */
  offsetMs: z.number().finite(),
  /** The camera clock's drift, parts per million (a camera's is within ±100). */
  driftPpm: z.number().min(-1000).max(1000),
  method: z.enum(['gpmf', 'clock', 'manual']),
  /** Expected error, ms. */
  errorMs: z.number().min(0).max(86_400_000),
});
export type VideoSyncRecord = z.infer<typeof videoSyncSchema>;

export const videoListSchema = z.array(videoSyncSchema);
/** The device's `:id` names the session, so the video's id is `:videoId`. */
export const videoParamsSchema = sessionParamsSchema.extend({ videoId: z.uuid() });

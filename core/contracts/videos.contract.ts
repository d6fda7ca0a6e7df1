/**
 * STAND-IN (video-ui branch): the video-sync helper writes the real contract; the merge drops
 * this commit. The shapes of DESIGN.md "Video, languages, jobs".
 */
import { z } from 'zod';

export const videoSyncMethodSchema = z.enum(['gpmf', 'clock', 'manual']);

/** One video's sync for a session; the file itself never leaves the rider's device. */
export const sessionVideoSchema = z.object({
  /** Made by the client (a UUID). */
  id: z.string().uuid(),
  name: z.string().min(1).max(255),
  size: z.number().int().nonnegative(),
  /** SHA-256 (hex) of the first and last MiB plus the size. */
  fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
  offsetMs: z.number(),
  driftPpm: z.number(),
  method: videoSyncMethodSchema,
  errorMs: z.number().nonnegative(),
});
export type SessionVideo = z.infer<typeof sessionVideoSchema>;

export const sessionVideosResponseSchema = z.array(sessionVideoSchema);

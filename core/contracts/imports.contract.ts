import { z } from 'zod';
import { lapKindSchema } from './common.contract';
import { IMPORT_FORMATS, IMPORT_WARNING_CODES } from '../imports/trace';
import { sessionKey } from './sessions.contract';
import { trackSourceSchema } from './tracks.contract';

/** The largest file an import takes (it streams to disk; the reader keeps fixes, not the file). */
export const MAX_IMPORT_BYTES = 256 * 1024 * 1024;

export const importQuerySchema = z.object({
  /** The file's name as the rider has it (a gps.six's day may be in it: 15112026_gps.six). */
  filename: z.string().min(1).max(255),
  /** The session's track name, instead of the one Voltas finds. */
  track: z.string().min(1).max(64).optional(),
});

const importWarningSchema = z.object({
  code: z.enum(IMPORT_WARNING_CODES),
  count: z.number().int().optional(),
  line: z.number().int().optional(),
  /** For 'sameRecording': the name of the file imported before that holds the same recording. */
  file: z.string().optional(),
  /** In Portuguese, for the rider. */
  message: z.string(),
});

export const importResponseSchema = z.object({
  /** Where the session is: `device` is the rider's own import collection, usable in every /api/devices/:id/... read. */
  session: z.object(sessionKey),
  format: z.enum(IMPORT_FORMATS),
  track: z.object({ id: z.string(), name: z.string(), source: trackSourceSchema }),
  /** Files of that day at that track imported so far (one session). */
  files: z.number().int(),
  /**
   * The complete laps (the one lap list, decision 028): `seconds` the time shown, the logger's own
   * (`loggerSeconds`) where its file timed that lap, else Voltas's GPS time (`gpsSeconds`).
   */
  laps: z.array(
    z.object({
      heat: z.string(),
      number: z.number().int(),
      seconds: z.number(),
      gpsSeconds: z.number(),
      kind: lapKindSchema,
      loggerSeconds: z.number().nullable(),
    }),
  ),
  bestLapSeconds: z.number().nullable(),
  /** The laps as the logger itself timed them (AiM, SpeedAngle, RaceChrono, TrackAddict, a VBO's own line). */
  loggerLaps: z.array(z.number()),
  samples: z.number().int(),
  warnings: z.array(importWarningSchema),
  /** A lap.six replaced the laps of the gps.six imported before it. */
  replacedLaps: z.boolean().optional(),
});
export type ImportAnswer = z.infer<typeof importResponseSchema>;

/** GET /api/imports/storage: what the rider stores (imports' raw files, their sessions' files) and may store, bytes. */
export const importStorageSchema = z.object({ usedBytes: z.number().int(), limitBytes: z.number().int() });
export type ImportStorage = z.infer<typeof importStorageSchema>;

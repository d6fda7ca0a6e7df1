import { z } from 'zod';
import { cornerSchema, lapComparisonShape } from './tracks.contract';
import { circuitSchema, dateParam, deviceIdParam, heatSchema, trackParam } from './sessions.contract';

/** A lap as every screen names it: heat and number within the heat ('A3'). */
export const lapKeyParam = z.string().regex(/^[A-D]\d{1,4}$/, 'lap: heat and number, e.g. A3');

/** The rider's fastest lap ever at one circuit (their own sessions: devices and imports, whatever each calls it). */
const personalBestSchema = z.object({
  /** The record session's own name for the track (its address). */
  track: z.string(),
  circuit: circuitSchema,
  /** Every name the rider's sessions at this circuit carry. */
  tracks: z.array(z.string()),
  lapTimeMs: z.number().int(),
  device: z.string(),
  date: z.string(),
  heat: heatSchema,
  lapCount: z.number().int(),
});
export type PersonalBest = z.infer<typeof personalBestSchema>;
export const personalBestsResponseSchema = z.object({ records: z.array(personalBestSchema) });
export type PersonalBestsResponse = z.infer<typeof personalBestsResponseSchema>;

/** `track`: any name the rider's sessions carry; the days are those at the circuit it stands for. */
export const progressQuerySchema = z.object({ track: trackParam });
const progressDaySchema = z.object({
  date: z.string(),
  device: z.string(),
  /** That session's own name for the track (its address). */
  track: z.string(),
  bestLapMs: z.number().int().nullable(),
  /** From the GPS trace (see mySessionSchema); null until that session's analysis ran. */
  idealLapMs: z.number().int().nullable(),
  theoreticalBestMs: z.number().int().nullable(),
  consistencyMs: z.number().int().nullable(),
  /** Mean of the fastest 80 % of the flying laps: the middle of the spread. */
  meanLapMs: z.number().int().nullable(),
  flyingLaps: z.number().int(),
  /** This day holds the personal best. */
  personalBest: z.boolean(),
});
export const progressResponseSchema = z.object({
  track: z.string(),
  /** The circuit the days were ridden on (null: no session there). */
  circuit: circuitSchema.nullable(),
  /** Every name the rider's sessions there carry. */
  tracks: z.array(z.string()),
  /** Oldest first; one per day (the session with the day's best lap where there were several). */
  days: z.array(progressDaySchema),
  personalBest: personalBestSchema.nullable(),
});
export type ProgressResponse = z.infer<typeof progressResponseSchema>;

export const cornerProgressQuerySchema = z.object({ track: trackParam, from: dateParam, to: dateParam });
export const cornerProgressResponseSchema = z.object({
  track: z.string(),
  from: z.string(),
  to: z.string(),
  /** Each corner's best time of each day (its section, as in the ideal lap); positive gain: faster on `to`. */
  corners: z.array(
    z.object({
      corner: z.number().int(),
      fromSeconds: z.number().nullable(),
      toSeconds: z.number().nullable(),
      gainSeconds: z.number().nullable(),
    }),
  ),
  mostImproved: z.number().int().nullable(),
  leastImproved: z.number().int().nullable(),
});
export type CornerProgress = z.infer<typeof cornerProgressResponseSchema>;

export const compareQuerySchema = z
  .object({
    device: deviceIdParam,
    track: trackParam,
    date: dateParam,
    lap: lapKeyParam,
    /** 'record': the rider's personal best there; else another session's lap, or a shared link's. */
    reference: z.enum(['record', 'lap', 'share']).default('lap'),
    refDevice: deviceIdParam.optional(),
    refTrack: trackParam.optional(),
    refDate: dateParam.optional(),
    refLap: lapKeyParam.optional(),
    share: z.string().max(100).optional(),
  })
  .refine((q) => q.reference !== 'lap' || (q.refDevice && q.refTrack && q.refDate && q.refLap), {
    message: 'reference=lap needs refDevice, refTrack, refDate and refLap',
    path: ['refLap'],
  })
  .refine((q) => q.reference !== 'share' || q.share, { message: 'reference=share needs share', path: ['share'] });

const comparedLapSchema = z.object({
  track: z.string(),
  date: z.string(),
  /** null for a lap seen through a shared link: its device is not the caller's to know. */
  device: z.string().nullable(),
  heat: heatSchema,
  number: z.number().int(),
  seconds: z.number(),
  shared: z.boolean(),
});
/** Two laps of one track against position along its line (metres from the start/finish). */
export const compareResponseSchema = z.object({
  track: z.object({ id: z.string(), name: z.string(), lengthM: z.number() }),
  lap: comparedLapSchema,
  reference: comparedLapSchema,
  x: z.array(z.number()),
  speed: z.tuple([z.array(z.number().nullable()), z.array(z.number().nullable())]),
  lean: z.tuple([z.array(z.number().nullable()), z.array(z.number().nullable())]),
  /** Seconds the lap is behind the reference at each position (positive: slower). */
  delta: z.array(z.number().nullable()),
  corners: z.array(cornerSchema),
  comparison: z.object(lapComparisonShape),
});
export type CompareResponse = z.infer<typeof compareResponseSchema>;

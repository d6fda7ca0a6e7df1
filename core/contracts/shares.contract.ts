import { z } from 'zod';
import { dateParam, deviceIdParam, heatSchema, trackParam } from './sessions.contract';
import { lapKindSchema } from './common.contract';
import { MAX_SHARE_NAME } from './share-limits';
import { lapKeyParam } from './progress.contract';
import { cornerSchema } from './tracks.contract';

/** A link's secret: 32 random bytes, base64url. */
export const SHARE_TOKEN = /^[A-Za-z0-9_-]{43}$/;
/** Any text: an altered or cut link is a 404 like a revoked one (the service says so), never a hint. */
const shareTokenParam = z.string().min(1).max(200);
const MAX_SHARE_DAYS = 365;
/** Links one rider may hold at once (revoke one to make another). */
export const MAX_SHARES_PER_RIDER = 200;

export const createShareBodySchema = z.object({
  device: deviceIdParam,
  track: trackParam,
  date: dateParam,
  lap: lapKeyParam.optional(),
  /** The link stops working after this many days; absent: until revoked. */
  expiresInDays: z.number().int().min(1).max(MAX_SHARE_DAYS).optional(),
  /** Shown to whoever opens the link ("Interlagos, first track day"); absent or blank: none. */
  name: z.string().trim().max(MAX_SHARE_NAME).optional(),
});
export const createShareResponseSchema = z.object({
  id: z.string(),
  url: z.string(),
  expiresAt: z.string().nullable(),
});
export type CreateShareResponse = z.infer<typeof createShareResponseSchema>;

const shareSchema = z.object({
  id: z.string(),
  track: z.string(),
  date: z.string(),
  lap: z.string().nullable(),
  name: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  /** The link itself, to copy again; null for a link made before links were kept sealed (revoke and make another). */
  url: z.string().nullable(),
});
export const sharesResponseSchema = z.object({ shares: z.array(shareSchema) });
export type SharesResponse = z.infer<typeof sharesResponseSchema>;
export const shareIdParamsSchema = z.object({ id: z.string().regex(/^sh[0-9a-f]{16}$/, 'share id') });
export const sharedParamsSchema = z.object({ token: shareTokenParam });
export const sharedLapQuerySchema = z.object({ lap: lapKeyParam.optional() });

/** What a shared link shows: the session's (or the one lap's) laps and figures; nothing about whose. */
export const sharedViewSchema = z.object({
  track: z.string(),
  date: z.string(),
  /** The one lap shared ('A3'); null: the whole session. */
  lap: z.string().nullable(),
  /** The name the rider gave the link; null: none. */
  name: z.string().nullable(),
  laps: z.array(
    z.object({
      heat: heatSchema,
      number: z.number().int(),
      /** The time a rider sees (the one lap list); null for a partial piece. */
      seconds: z.number().nullable(),
      kind: lapKindSchema,
      complete: z.boolean(),
      best: z.boolean(),
      /** Gate to gate (start/finish, each sector gate, start/finish) for a complete lap; empty otherwise. */
      sectorSeconds: z.array(z.number()),
      /** The lap's top speed (km/h), null for a piece that is not a complete lap. */
      topKmh: z.number().nullable(),
    }),
  ),
  /** The fastest of each sector over the complete laps shown (the session's best sectors). */
  bestSectorSeconds: z.array(z.number()),
  /** The top speed of the laps shown (km/h); null without a complete lap. */
  topSpeedKmh: z.number().nullable(),
  bestLapSeconds: z.number().nullable(),
  idealLapSeconds: z.number().nullable(),
  consistencyMs: z.number().int().nullable(),
  corners: z.array(cornerSchema),
  lengthM: z.number(),
});
export type SharedView = z.infer<typeof sharedViewSchema>;

/** One lap of a shared link on the track's position grid, with its path for the map. */
export const sharedLapSchema = z.object({
  heat: heatSchema,
  number: z.number().int(),
  seconds: z.number(),
  x: z.array(z.number()),
  speed: z.array(z.number().nullable()),
  lean: z.array(z.number().nullable()),
  /** [lat, lon] every few metres. */
  path: z.array(z.tuple([z.number(), z.number()])),
});
export type SharedLap = z.infer<typeof sharedLapSchema>;

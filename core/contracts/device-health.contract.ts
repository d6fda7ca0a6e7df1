// Device health (issue 61): what each device said at its last check-in, the fleet as admins and
// sellers see it, and the track pack a device fetches.
import { z } from 'zod';
import { pitLaneSchema } from './tracks.contract';

/** Why a device is listed first: silent too long, low on storage, uploads failing, battery low. */
const attentionSchema = z.enum(['silent', 'low-storage', 'upload-errors', 'low-battery']);
export type Attention = z.infer<typeof attentionSchema>;

/** One device's health (null: never reported). */
const deviceHealthSchema = z.object({
  id: z.string(),
  name: z.string(),
  owner: z.string(),
  seller: z.string(),
  /** Firmware version it last reported (check-in or the old status call). */
  version: z.string(),
  /** The spec's `up`: now the time the device was last heard from (ISO), '' never. */
  up: z.string(),
  lastSeenAt: z.string().nullable(),
  hardwareClass: z.string().nullable(),
  slot: z.string().nullable(),
  pendingVerify: z.boolean(),
  battery: z.number().nullable(),
  freeStorageKb: z.number().nullable(),
  queuedSessions: z.number().nullable(),
  lastUploadError: z.string().nullable(),
  /** Check-ins in the kept history that reported an upload error. */
  uploadErrors: z.number().int(),
  resetReason: z.string().nullable(),
  rssi: z.number().nullable(),
  uptimeS: z.number().nullable(),
  /** The rollout the device is in now, with its step (admins only; null for sellers and riders). */
  rollout: z
    .object({ id: z.string(), version: z.string(), state: z.string(), error: z.string().nullable() })
    .nullable(),
  /** Empty when all is well; a device with any is listed first. */
  attention: z.array(attentionSchema),
});
export type DeviceHealth = z.infer<typeof deviceHealthSchema>;

/** The thresholds behind `attention`, so the page can say them. */
const attentionThresholdsSchema = z.object({
  silentAfterHours: z.number(),
  lowStorageKb: z.number(),
  lowBatteryPct: z.number(),
});

/** GET /api/admin/fleet and GET /api/seller/fleet: devices needing attention first, then by id. */
export const fleetSchema = z.object({
  devices: z.array(deviceHealthSchema),
  /** How many devices run each version, per hardware class (the version spread). */
  versions: z.array(z.object({ class: z.string(), version: z.string(), devices: z.number().int() })),
  thresholds: attentionThresholdsSchema,
});
export type Fleet = z.infer<typeof fleetSchema>;

/** GET /api/admin/devices/:id/health: the kept check-ins, newest first (at most 200 per device). */
export const healthHistorySchema = z.object({
  id: z.string(),
  history: z.array(
    z.object({
      at: z.string(),
      version: z.string(),
      battery: z.number().nullable(),
      freeStorageKb: z.number().nullable(),
      queuedSessions: z.number().nullable(),
      lastUploadError: z.string().nullable(),
      resetReason: z.string().nullable(),
      rssi: z.number().nullable(),
      uptimeS: z.number().nullable(),
    }),
  ),
});

// ---- The track pack (device) ----

const point = z.object({ lat: z.number(), lon: z.number() });
const line = z.object({ a: point, b: point });

/** GET /api/device/v1/tracks?lat=&lon=&radiusKm= */
export const trackPackQuerySchema = z.object({
  lat: z.coerce.number().min(-90).max(90),
  lon: z.coerce.number().min(-180).max(180),
  radiusKm: z.coerce.number().min(0.1).max(500).default(50),
});
export const trackPackSchema = z.object({
  tracks: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      /** Distance from the asked point to the circuit's start/finish. */
      distanceKm: z.number(),
      startFinish: line,
      /** Sector lines in driving order (may be empty). */
      sectors: z.array(line),
      /** The pit lane ("Box"): its entry and exit lines; null where nobody drew it yet. */
      pitLane: z.object({ entry: line, exit: line }).nullable(),
    }),
  ),
});
export type TrackPack = z.infer<typeof trackPackSchema>;

/**
 * PUT /api/admin/tracks/:trackId/pit-lane: draw (or clear, null) a circuit's pit lane. Each line is
 * checked as a timing gate is (on the globe, 2 to 200 m wide): a device times its box with them.
 */
export const pitLaneInputSchema = z.object({ pitLane: pitLaneSchema.nullable() });

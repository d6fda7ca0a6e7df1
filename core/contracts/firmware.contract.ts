// Firmware in the field (issue 61): the device's check-in and reports, signed images, and the admin's
// rollouts. The device half and the admin half share the manifest; see DESIGN.md, "Devices in the field".
import { z } from 'zod';

/** A firmware version as a device reports it and a manifest names it: 1.2.3, 1.2.3-beta.1. */
const firmwareVersionSchema = z
  .string()
  .trim()
  .regex(/^\d{1,4}\.\d{1,4}\.\d{1,4}(-[0-9A-Za-z.-]{1,20})?$/, 'version: major.minor.patch, e.g. 1.4.0');
/** A hardware class: what board an image is built for (lower case, digits, dashes). */
const hardwareClassSchema = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'hardware class: lower-case letters, digits and dashes, e.g. vt1-rev-b');

/** POST /api/device/v1/check-in: what a device says of itself when idle on Wi-Fi. */
export const checkInInputSchema = z.object({
  firmware: z.object({
    version: z.string().max(40),
    /** The A/B slot it booted from. */
    slot: z.enum(['a', 'b']).optional(),
    /** Booted a new image not yet confirmed: the device confirms (or rolls back) after this check-in. */
    pendingVerify: z.boolean().optional(),
  }),
  hardware: z.object({ class: z.string().max(32) }),
  /** Per cent. */
  battery: z.number().min(0).max(100).optional(),
  /** On external power: a rollout's battery floor does not apply. */
  charging: z.boolean().optional(),
  freeStorageKb: z.number().int().min(0).max(2_000_000_000).optional(),
  queuedSessions: z.number().int().min(0).max(100_000).optional(),
  /** The last upload's error, as the device names it ('' or absent: none since). */
  lastUploadError: z.string().max(120).optional(),
  resetReason: z.string().max(40).optional(),
  /** dBm. */
  rssi: z.number().int().min(-150).max(0).optional(),
  uptimeS: z
    .number()
    .int()
    .min(0)
    .max(2 ** 32)
    .optional(),
});
export type CheckInInput = z.infer<typeof checkInInputSchema>;

/** The signed manifest (the `manifest` string parsed): what the image is, for which class, until when. */
export const firmwareManifestSchema = z.object({
  class: hardwareClassSchema,
  version: firmwareVersionSchema,
  /** Strictly rising per class: an image can never move a class backwards. */
  seq: z
    .number()
    .int()
    .min(1)
    .max(2 ** 31),
  /** Of the image, lower-case hex. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'sha256: 64 lower-case hex digits'),
  size: z
    .number()
    .int()
    .min(1)
    .max(64 * 1024 * 1024),
  /** ISO time after which no device accepts an offer of this manifest. */
  expires: z.iso.datetime({ offset: true }),
  /** The oldest version that may install it ('' : any). */
  minFrom: z.string().max(40),
});
export type FirmwareManifest = z.infer<typeof firmwareManifestSchema>;

const firmwareOfferSchema = z.object({
  /** The exact bytes signed (JSON of a FirmwareManifest): verify these, then parse them. */
  manifest: z.string(),
  /** Base64 Ed25519 signature over `manifest`'s UTF-8 bytes. */
  signature: z.string(),
  rolloutId: z.string(),
  /** Where to GET the image (Range allowed); its integrity comes from the signed sha256. */
  url: z.string(),
});
export type FirmwareOffer = z.infer<typeof firmwareOfferSchema>;
export const checkInResponseSchema = z.object({ update: firmwareOfferSchema.nullable() });

const firmwareReportStates = [
  'downloading',
  'downloaded',
  'installing',
  'rebooted',
  'confirmed',
  'rolled-back',
  'failed',
] as const;
const firmwareReportStateSchema = z.enum(firmwareReportStates);
/** POST /api/device/v1/firmware-report. */
export const firmwareReportInputSchema = z.object({
  rolloutId: z.string().max(64),
  state: firmwareReportStateSchema,
  /** A short code for what failed ('hash-mismatch', 'boot-loop', …); counted by code in the funnel. */
  error: z
    .string()
    .max(40)
    .regex(/^[A-Za-z0-9._-]*$/, 'error: a short code of letters, digits, dots, dashes')
    .optional(),
});

// ---- Admin: images ----

/** POST /api/admin/firmware: the manifest and signature `npx voltas firmware sign` printed. */
export const firmwareCreateInputSchema = z.object({ manifest: z.string().max(4096), signature: z.string().max(200) });
export const firmwareCreatedSchema = z.object({ id: z.string() });

export const firmwareSchema = z.object({
  id: z.string(),
  class: z.string(),
  version: z.string(),
  seq: z.number().int(),
  sha256: z.string(),
  size: z.number().int(),
  minFrom: z.string(),
  expires: z.string(),
  /** The image's bytes arrived and matched: only then can a rollout use it. */
  imageStored: z.boolean(),
  createdAt: z.string(),
  createdBy: z.string(),
});
export type Firmware = z.infer<typeof firmwareSchema>;
export const firmwareListSchema = z.object({ firmware: z.array(firmwareSchema) });
export const firmwareIdParamsSchema = z.object({ id: z.string().max(64) });

// ---- Admin: rollouts ----

/** 'internal' and 'beta' are flags an admin sets on a user; 'seller:<e-mail>' is that seller's stock and buyers. */
const cohortSchema = z.union([
  z.enum(['all', 'internal', 'beta']),
  z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^seller:[^\s@]+@[^\s@]+$/, "cohort: 'all', 'internal', 'beta' or 'seller:<e-mail>'"),
]);
const rolloutStateSchema = z.enum(['running', 'paused', 'halted', 'aborted', 'done']);
export type RolloutState = z.infer<typeof rolloutStateSchema>;

export const rolloutCreateInputSchema = z.object({
  firmwareId: z.string().max(64),
  cohorts: z.array(cohortSchema).min(1).max(20),
  percent: z.number().min(0).max(100),
  /** Halts the rollout when failed ÷ (confirmed + failed) passes this (per cent)… */
  failureThresholdPct: z.number().min(0).max(100),
  /** …among at least this many finished devices. */
  minDevices: z.number().int().min(1).max(100_000),
  /** A device on battery under this (per cent) is not offered the image. Default 30. */
  minBatteryPct: z.number().min(0).max(100).optional(),
});
export const rolloutCreatedSchema = z.object({ id: z.string() });
/** PATCH /api/admin/rollouts/:id: pause, resume, abort, or widen (a halted, aborted or done rollout stays so). */
export const rolloutPatchInputSchema = z
  .object({
    state: z.enum(['running', 'paused', 'aborted']).optional(),
    percent: z.number().min(0).max(100).optional(),
  })
  .refine((p) => p.state !== undefined || p.percent !== undefined, 'state or percent');

/**
 * 'failure-threshold': `failed` of the `judged` devices (confirmed + failed, at least the rollout's
 * minDevices) failed or rolled back, a share above `threshold` per cent.
 */
export const haltReasonSchema = z.object({
  code: z.literal('failure-threshold'),
  failed: z.number().int(),
  judged: z.number().int(),
  threshold: z.number(),
});
export type HaltReason = z.infer<typeof haltReasonSchema>;

export const rolloutSchema = z.object({
  id: z.string(),
  firmwareId: z.string(),
  class: z.string(),
  version: z.string(),
  cohorts: z.array(z.string()),
  percent: z.number(),
  failureThresholdPct: z.number(),
  minDevices: z.number().int(),
  minBatteryPct: z.number(),
  state: rolloutStateSchema,
  /** Why it halted (null unless halted), as a code and its figures: pages say it in their language. */
  haltReason: haltReasonSchema.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  createdBy: z.string(),
  /** The funnel: devices offered it, those that downloaded it, confirmed it after rebooting, failed or rolled back. */
  offered: z.number().int(),
  downloaded: z.number().int(),
  confirmed: z.number().int(),
  failed: z.number().int(),
  /** Failures by code (a rollback with no code counts as 'rolled-back'). */
  failures: z.record(z.string(), z.number().int()),
});
export type Rollout = z.infer<typeof rolloutSchema>;
export const rolloutListSchema = z.object({ rollouts: z.array(rolloutSchema) });
export const rolloutIdParamsSchema = z.object({ id: z.string().max(64) });

// ---- Admin: who is internal or beta ----

const userCohortSchema = z.enum(['', 'internal', 'beta']);
/** PUT /api/admin/users/:email/cohort. */
export const userCohortInputSchema = z.object({ cohort: userCohortSchema });
/** GET /api/admin/cohorts: the users in the internal or beta cohort. */
export const cohortMembersSchema = z.object({
  users: z.array(z.object({ email: z.string(), cohort: userCohortSchema })),
});

import { z } from 'zod';
import { HEATS } from '../formats/six-lines';
import { UNITS } from '../units';

/** Bateria: the heat, A–D (never a battery level). */
export const heatSchema = z.enum(HEATS);

const problemSchema = z.object({ line: z.number().int(), field: z.string(), reason: z.string() });

/** A device (12 digits) or a rider's import collection ('imp' + 12 hex digits). */
export const deviceIdParam = z
  .string()
  .regex(/^(\d{12}|imp[0-9a-f]{12})$/, 'device id: 12 digits, or an import collection');
export const trackParam = z.string().min(1).max(64);
export const dateParam = z.string().regex(/^\d{8}$/, 'date: ddmmyyyy');

export const deviceParamsSchema = z.object({ id: deviceIdParam });
export const trackParamsSchema = z.object({ id: deviceIdParam, track: trackParam });
export const sessionParamsSchema = z.object({ id: deviceIdParam, track: trackParam, date: dateParam });

/** A session's address: its device (or import collection), its track's name, its day. */
export const sessionKey = { device: z.string(), track: z.string(), date: z.string() };

export const tracksResponseSchema = z.object({ device: z.string(), demo: z.boolean(), tracks: z.array(z.string()) });
export const datesResponseSchema = z.object({ device: z.string(), track: z.string(), dates: z.array(z.string()) });
export type TracksResponse = z.infer<typeof tracksResponseSchema>;
export type DatesResponse = z.infer<typeof datesResponseSchema>;

const sectorSchema = z.object({
  timerMs: z.number().int(),
  upFlag: z.union([z.literal(0), z.literal(1)]),
  upMax: z.number().int(),
  upTrack: z.number().int(),
  displayTime: z.string(),
  distanceM: z.number().int(),
});

const lapRowSchema = z.object({
  lapCount: z.number().int(),
  heat: heatSchema,
  lapTime: z.string(),
  lapTimeMs: z.number().int(),
  lapSeconds: z.number(),
  sectors: z.array(sectorSchema).length(4),
  sprintCount: z.number().int(),
  distanceM: z.number().int(),
  /** By the session's one lap list where it has one (a GPS trace at a track: decision 028), else by the lap.six's rules. */
  kind: z.enum(['out', 'in', 'flying', 'partial']),
  gapMs: z.number().int().nullable(),
  isBest: z.boolean(),
  bestSectors: z.array(z.boolean()).length(4),
});
export type LapRow = z.infer<typeof lapRowSchema>;

export const lapsResponseSchema = z.object({
  ...sessionKey,
  demo: z.boolean(),
  laps: z.array(lapRowSchema),
  bestLapMs: z.number().int().nullable(),
  bestSectorsMs: z.array(z.number().int().nullable()).length(4),
  theoreticalBestMs: z.number().int().nullable(),
  warnings: z.array(problemSchema),
});
export type LapsResponse = z.infer<typeof lapsResponseSchema>;

/** GPS samples as columns (one array per spec field); heat as 'A'..'D'. */
export const gpsResponseSchema = z.object({
  ...sessionKey,
  /** Samples in this answer: at most 25,000, every `step`-th of the session's `totalCount`. */
  count: z.number().int(),
  totalCount: z.number().int(),
  step: z.number().int().min(1),
  columns: z.object({
    latitude: z.array(z.number()),
    longitude: z.array(z.number()),
    strSpeedGps: z.array(z.number()),
    strSatGps: z.array(z.number()),
    timeGps: z.array(z.string()),
    lapCount: z.array(z.number()),
    bFirstLap: z.array(z.number()),
    strBateria: z.array(z.string()),
    roll: z.array(z.number()),
    leanFiltered: z.array(z.number()),
    meterSum: z.array(z.number()),
  }),
  warnings: z.array(problemSchema),
});

export const summaryResponseSchema = z.object({
  ...sessionKey,
  demo: z.boolean(),
  lapCount: z.number().int(),
  sampleCount: z.number().int(),
  bestLapMs: z.number().int().nullable(),
  theoreticalBestMs: z.number().int().nullable(),
  heats: z.array(z.string()),
  files: z.object({ lap: z.boolean(), gps: z.boolean() }),
  warnings: z.object({ lap: z.array(problemSchema), gps: z.array(problemSchema) }),
  updatedAt: z.string(),
});

export const uploadResponseSchema = z.object({
  stored: z.boolean(),
  unchanged: z.boolean(),
  key: z.string(),
  md5Hash: z.string(),
  /** Bytes of the file as stored. */
  size: z.number().int(),
  lines: z.number().int(),
  indexed: z.number().int(),
  warnings: z.array(problemSchema),
});

export const deviceConfigSchema = z.object({
  wifi: z.string(),
  senha: z.string(),
  nomePiloto: z.string(),
  numeroMoto: z.string(),
});
export const deviceStatusInputSchema = z.object({ version: z.string().max(40), up: z.string().max(40) });

export const storageListQuerySchema = z.object({
  prefix: z.string().max(300).default(''),
  maxResults: z.string().optional(),
  pageToken: z.string().max(400).optional(),
});
export const storageListResponseSchema = z.object({
  prefixes: z.array(z.string()),
  items: z.array(z.string()),
  nextPageToken: z.string().optional(),
});
export const storageMetadataQuerySchema = z.object({ path: z.string().min(1).max(300) });
export const storageMetadataSchema = z.object({
  bucket: z.string(),
  generation: z.string(),
  metageneration: z.string(),
  name: z.string(),
  fullPath: z.string(),
  size: z.number().int(),
  timeCreated: z.string(),
  updated: z.string(),
  md5Hash: z.string(),
  cacheControl: z.string().optional(),
  contentDisposition: z.string().optional(),
  contentEncoding: z.string().optional(),
  contentLanguage: z.string().optional(),
  contentType: z.string(),
  customMetadata: z.record(z.string(), z.string()),
});

/** Exactly the spec's messages for list page sizes. */
export const MAX_RESULTS_MESSAGES = {
  tooSmall: "Invalid value for 'options.maxResults'. Expected 1 or greater.",
  tooLarge: "Invalid value for 'options.maxResults'. Expected 1000 or less.",
} as const;

const lapSegmentSchema = z.object({
  heat: heatSchema,
  lapCount: z.number().int(),
  start: z.number().int(),
  end: z.number().int(),
  outLap: z.boolean(),
  durationMs: z.number(),
  distanceM: z.number(),
  topSpeedKmh: z.number(),
  topSpeedIndex: z.number().int(),
  minSpeedKmh: z.number(),
  maxLeanLeftDeg: z.number(),
  maxLeanRightDeg: z.number(),
  meanSatellites: z.number(),
  minSatellites: z.number(),
  sampleRateHz: z.number(),
  weakFix: z.boolean(),
});

/** What the spec only logged (top speed, roll extremes and their laps), plus per-lap figures. */
export const analysisResponseSchema = z.object({
  laps: z.array(lapSegmentSchema),
  topSpeedKmh: z.number(),
  topSpeedLap: z.number().int().nullable(),
  topSpeedHeat: heatSchema.nullable(),
  maxLeanRightDeg: z.number(),
  maxLeanRightLap: z.number().int().nullable(),
  maxLeanRightHeat: heatSchema.nullable(),
  maxLeanLeftDeg: z.number(),
  maxLeanLeftLap: z.number().int().nullable(),
  maxLeanLeftHeat: heatSchema.nullable(),
  sampleRateHz: z.number(),
});
export type AnalysisResponse = z.infer<typeof analysisResponseSchema>;

export const exportParamsSchema = sessionParamsSchema.extend({ format: z.enum(['csv', 'gpx', 'lap.six', 'gps.six']) });
export const exportQuerySchema = z.object({
  heat: heatSchema.optional(),
  lap: z.coerce.number().int().min(0).max(1_000_000).optional(),
  /** The CSV's speed column: km/h (default) or mph. */
  units: z.enum(UNITS).optional(),
});

export const latestSessionSchema = z.object({ ...sessionKey, updatedAt: z.string(), demo: z.boolean() }).nullable();
export type LatestSession = z.infer<typeof latestSessionSchema>;

/** Server-sent event 'session': a session the viewer may see was uploaded or replaced. */
export interface SessionEventMessage {
  type: 'session-updated';
  deviceId: string;
  track: string;
  date: string;
  /** Sent to the session's rider only: its best lap beat their record at the track. */
  personalBest?: { lapTimeMs: number; previousMs: number };
}

/** 'Minhas sessões': the caller's own sessions (devices and imports), newest first, a page at a time. */
export const mySessionsQuerySchema = z.object({
  track: trackParam.optional(),
  /** Where the previous page ended (its `next`). */
  after: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
/**
 * The circuit a session was ridden on, whatever its logger calls it: the track Voltas identified
 * (`id`), or, not identified yet, the one another of the rider's sessions by that name was; else
 * `id` null and the session's own name.
 */
export const circuitSchema = z.object({ id: z.string().nullable(), name: z.string() });
export type Circuit = z.infer<typeof circuitSchema>;

const mySessionSchema = z.object({
  device: z.string(),
  /** The session's own name for its track (the device's, or the import's): its address. */
  track: z.string(),
  circuit: circuitSchema,
  date: z.string(),
  /** From another logger (the rider's import collection). */
  imported: z.boolean(),
  /** The fastest flying lap of the session: of its one lap list where it has one, else of its lap.six. */
  bestLapMs: z.number().int().nullable(),
  /** The ideal lap: its best pieces between corners, from the GPS trace (null until its analysis ran, or without GPS). */
  idealLapMs: z.number().int().nullable(),
  /** Its best four sectors added up (the spec's theoretical best). */
  theoreticalBestMs: z.number().int().nullable(),
  /** Standard deviation of the fastest 80 % of its flying laps (null under three). */
  consistencyMs: z.number().int().nullable(),
  laps: z.number().int(),
  heats: z.number().int(),
  updatedAt: z.string(),
});
export const mySessionsResponseSchema = z.object({
  sessions: z.array(mySessionSchema),
  /** Pass as `after` for the next page; null on the last. */
  next: z.string().nullable(),
  /** Every track name the caller's sessions carry. */
  tracks: z.array(z.string()),
  /** Every circuit the caller has sessions at, with the names its sessions carry (the filter: `track` = any of them). */
  circuits: z.array(circuitSchema.extend({ tracks: z.array(z.string()) })),
});
export type MySessions = z.infer<typeof mySessionsResponseSchema>;

// The tracks API: a track's summary and corners, its analysis and lap comparisons, the catalogue,
// and the rider's track edits.
import { z } from 'zod';
import { haversineM } from '../geo';
import { lapKindSchema } from './common.contract';
import { heatSchema } from './sessions.contract';
import { UNITS } from '../units';

const latLonSchema = z.object({ lat: z.number().min(-90).max(90), lon: z.number().min(-180).max(180) });
/** A timing line is a few metres to a couple of hundred wide: across a track, never across a region. */
const GATE_WIDTH_M = { min: 2, max: 200 };
/** A timing line across the track: `a` on the rider's left, `b` on the right. */
const gateSchema = z.object({ a: latLonSchema, b: latLonSchema }).refine((g) => {
  const width = haversineM(g.a.lat, g.a.lon, g.b.lat, g.b.lon);
  return width >= GATE_WIDTH_M.min && width <= GATE_WIDTH_M.max;
}, 'gateWidth');

export const trackSourceSchema = z.enum(['catalogue', 'derived', 'bundled']);
export const trackSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  source: trackSourceSchema,
  /** Bumped when an admin moves a gate; every session's analysis follows. */
  version: z.number().int(),
  gate: gateSchema,
  /** Sector gates in driving order (placed by an admin, or the track's default ones). */
  sectors: z.array(gateSchema),
  lengthM: z.number(),
  /** Everyone's (a real circuit, or a derived track an admin shared); false: the rider's own, whose traces derived it. */
  shared: z.boolean(),
});
export type TrackSummary = z.infer<typeof trackSummarySchema>;

export const cornerSchema = z.object({
  number: z.number().int(),
  direction: z.enum(['left', 'right']),
  apex: latLonSchema,
  startM: z.number(),
  apexM: z.number(),
  endM: z.number(),
});

const segmentSchema = z.object({
  id: z.string().describe('T3: corner 3; R3: the straight after it (R0 from the line to T1)'),
  kind: z.enum(['corner', 'straight']),
  corner: z.number().int().nullable(),
  fromM: z.number(),
  toM: z.number(),
});
const sectionSchema = z.object({ corner: z.number().int(), fromM: z.number(), toM: z.number() });

const timedLapSchema = z.object({
  /** 1-based, in the order ridden: what ?lap= and ?reference= name. */
  index: z.number().int(),
  heat: heatSchema,
  /** Within its heat; 0 for an out-lap or a partial piece that opens it (as the device counts). */
  number: z.number().int(),
  /** The time a rider sees everywhere (the one lap list, decision 028); null for a partial piece. */
  seconds: z.number().nullable(),
  /** Whose time `seconds` is: the device's (lap.six), the logger's (an import's own laps), or Voltas's GPS timing. */
  timeSource: z.enum(['device', 'logger', 'gps']),
  /** Voltas's GPS gate timing of the piece, the check beside the device's or logger's time. */
  gpsSeconds: z.number(),
  kind: lapKindSchema,
  /** Starts and ends at the line (a piece before the first crossing or after the last does not: no segments). */
  complete: z.boolean(),
  /** The lap.six time of the same lap (the device's own; for an import, the time kept from its logger). */
  deviceSeconds: z.number().nullable(),
  /** The time shown and the GPS time differ by more than 0.05 s (both are shown). */
  differs: z.boolean(),
  segmentSeconds: z.array(z.number()),
  /** Gate to gate (start/finish, each sector gate, start/finish); they add up to the lap time. */
  sectorSeconds: z.array(z.number()),
  /** null where the GPS was out (over 1 s without a fix) or weak. */
  sectionSeconds: z.array(z.number().nullable()),
});

const cornerFiguresSchema = z.object({
  corner: z.number().int(),
  seconds: z.number(),
  entryKmh: z.number(),
  minKmh: z.number(),
  apexM: z.number(),
  apex: latLonSchema,
  exitKmh: z.number(),
  maxLeanDeg: z.number().nullable(),
  brakeBeforeApexM: z.number().nullable(),
  topKmhBefore: z.number(),
});

export const segmentDeltaSchema = z.object({
  segment: z.string(),
  kind: z.enum(['corner', 'straight']),
  corner: z.number().int().nullable(),
  deltaSeconds: z.number(),
  brakedEarlierM: z.number().nullable(),
  apexKmh: z.number().nullable(),
  exitKmh: z.number().nullable(),
  topKmh: z.number().nullable(),
});

const lapIndexQuery = (what: string) => z.coerce.number().int().min(1).max(100_000).optional().describe(what);
/** A lap against its reference: corner figures of both, and the segments largest loss first. */
export const lapComparisonShape = {
  deltaSeconds: z.number(),
  lapCorners: z.array(cornerFiguresSchema),
  referenceCorners: z.array(cornerFiguresSchema),
  segments: z.array(segmentDeltaSchema),
};

export const trackAnalysisQuerySchema = z.object({
  lap: lapIndexQuery('index of the lap to study (default: the last flying lap)'),
  reference: lapIndexQuery('index of the lap to compare with (default: the best lap)'),
});

export const trackAnalysisResponseSchema = z.object({
  track: trackSummarySchema.extend({
    /** The caller may rename it: a track the session itself defined, its creator's (or an admin's). */
    renamable: z.boolean(),
    /** The caller may pick another track for this session: its owner or an admin. */
    choosable: z.boolean(),
  }),
  laps: z.array(timedLapSchema),
  corners: z.array(cornerSchema),
  segments: z.array(segmentSchema),
  sections: z.array(sectionSchema),
  bestLap: z.number().int().nullable(),
  idealLapSeconds: z.number().nullable(),
  idealLap: z.array(
    z.object({ corner: z.number().int(), seconds: z.number().nullable(), lap: z.number().int().nullable() }),
  ),
  /** The sum of the device's four best sectors (lap.six), null without device laps. */
  theoreticalBestSeconds: z.number().nullable(),
  /** The lap studied against its reference. */
  comparison: z.object({ lap: z.number().int(), reference: z.number().int(), ...lapComparisonShape }).nullable(),
});
export type TrackAnalysisResponse = z.infer<typeof trackAnalysisResponseSchema>;

export const trackIdParamsSchema = z.object({ trackId: z.string().min(1).max(200) });
/** A circuit's pit lane ("Box"): the line a rider crosses into it, and the one out of it. */
export const pitLaneSchema = z.object({ entry: gateSchema, exit: gateSchema });
export const trackDetailSchema = trackSummarySchema.extend({
  corners: z.array(cornerSchema),
  /** The line from the start/finish, every ~10 m, for the map. */
  line: z.array(z.tuple([z.number(), z.number()])),
  /** Where an admin drew it (what the device's track pack carries); null where nobody has. */
  pitLane: pitLaneSchema.nullable(),
  /** false: a catalogue circuit no session was ridden on yet; only its pit lane can be drawn. */
  stored: z.boolean(),
});
export const moveGateBodySchema = z.object({
  gate: gateSchema,
  sector: z.number().int().min(1).max(20).optional().describe('which sector gate (1-based); absent: the start/finish'),
});
export const catalogueQuerySchema = z.object({ q: z.string().trim().min(2).max(80) });
export const catalogueResponseSchema = z.object({
  tracks: z.array(z.object({ id: z.string(), name: z.string(), shortName: z.string(), startFinish: latLonSchema })),
});
export type CatalogueResponse = z.infer<typeof catalogueResponseSchema>;
export const trackListSchema = z.array(
  z.object({
    id: z.string(),
    name: z.string(),
    source: trackSourceSchema,
    version: z.number().int(),
    updatedAt: z.string(),
    sessions: z.number().int(),
    shared: z.boolean(),
    /** Whose session first found it (a derived track not shared is theirs alone). */
    createdBy: z.string(),
  }),
);
/** A track's name as a rider types it: letters, digits, spaces and common punctuation. */
const trackNameSchema = z
  .string()
  .trim()
  .min(2, 'trackNameShort')
  .max(60, 'trackNameLong')
  .regex(/^[\p{L}\p{N} .,'()&/-]+$/u, 'trackNameChars');
export const renameTrackBodySchema = z.object({ name: trackNameSchema });
export const shareTrackBodySchema = z.object({
  shared: z.boolean().describe('true: every rider’s traces may be matched to it; false: its creator’s own again'),
});
export const chooseTrackBodySchema = z.object({ catalogueId: z.string().min(1).max(200) });

/** What the laps screen reads of a track analysis (the same answer): the ideal lap and each lap's GPS time. */
export type TrackLapTimes = Pick<TrackAnalysisResponse, 'idealLapSeconds'> & {
  laps: Pick<
    TrackAnalysisResponse['laps'][number],
    'heat' | 'number' | 'seconds' | 'gpsSeconds' | 'timeSource' | 'deviceSeconds' | 'differs' | 'complete' | 'kind'
  >[];
};

// The corner study (issue 62): a lap against its reference corner by corner, and three tips.
/** A lap as the screens name it ('A3'), or the reference's special names. */
const coachingLapKey = z.string().regex(/^[A-D]\d{1,4}$/, 'lap: heat and number, e.g. A3');
export const coachingQuerySchema = z.object({
  lap: coachingLapKey.optional().describe('the lap studied, e.g. A3 (default: the best lap)'),
  ref: z
    .union([z.enum(['ideal', 'record']), coachingLapKey])
    .default('ideal')
    .describe('ideal: the session’s ideal lap; record: the rider’s fastest lap at this track; or a lap, e.g. A2'),
  units: z.enum(UNITS).default('metric').describe('the tips’ units'),
});
const verdict = <T extends [string, ...string[]]>(...values: T) =>
  z.enum([...values, 'same'] as [string, ...string[]]).nullable();
const nullableNumber = z.number().nullable();
const coachedCornerSchema = z.object({
  name: z.string(),
  corner: z.number().int(),
  direction: z.enum(['left', 'right']),
  startM: z.number(),
  apexM: z.number(),
  endM: z.number(),
  apex: latLonSchema,
  /** Seconds into the lap studied when it reached the corner (the video's moment). */
  atS: nullableNumber,
  referenceLap: z.string(),
  accuracyM: z.number(),
  apexAccuracyM: z.number(),
  throttleAccuracyM: z.number(),
  speedAccuracyKmh: z.number(),
  exitAccuracyKmh: z.number(),
  lineAccuracyM: z.number(),
  timeLostS: nullableNumber,
  entryLostS: nullableNumber,
  middleLostS: nullableNumber,
  exitLostS: nullableNumber,
  brakeStartM: nullableNumber,
  brakeDeltaM: nullableNumber,
  brakePeakG: nullableNumber,
  trailBrakeS: nullableNumber,
  trailBrakeG: nullableNumber,
  entryKmh: nullableNumber,
  minKmh: nullableNumber,
  minKmhDelta: nullableNumber,
  minAtDeltaM: nullableNumber,
  exitKmh: nullableNumber,
  exitKmhDelta: nullableNumber,
  throttleAtM: nullableNumber,
  throttleAtDeltaM: nullableNumber,
  throttleAtDeltaS: nullableNumber,
  maxLeanDeg: nullableNumber,
  nearMaxLeanS: nullableNumber,
  leanAtThrottleDeg: nullableNumber,
  coastS: nullableNumber,
  coastDeltaS: nullableNumber,
  gripUsePct: nullableNumber,
  turnInOffsetDeltaM: nullableNumber,
  apexOffsetDeltaM: nullableNumber,
  verdicts: z.object({
    brake: verdict('earlier', 'later'),
    minSpeed: verdict('faster', 'slower'),
    apex: verdict('early', 'late'),
    throttle: verdict('earlier', 'later'),
    exitSpeed: verdict('faster', 'slower'),
  }),
  reference: z.object({
    brakeStartM: nullableNumber,
    minKmh: z.number(),
    minAtM: z.number(),
    throttleAtM: nullableNumber,
    maxLeanDeg: z.number(),
    exitKmh: z.number(),
  }),
  consistency: z
    .object({ laps: z.number().int(), brakeSpreadM: nullableNumber, minSpreadKmh: nullableNumber })
    .nullable(),
});
export const coachingResponseSchema = z.object({
  lap: z.string(),
  ref: z.string(),
  reference: z.object({
    kind: z.enum(['lap', 'ideal']),
    /** The reference lap's name; for the record, the session it was ridden in too. */
    lap: z.string().nullable(),
    session: z.object({ device: z.string(), track: z.string(), date: z.string() }).nullable(),
    seconds: z.number(),
  }),
  deltaSeconds: z.number(),
  timeAccuracyS: z.number(),
  hz: z.number(),
  /** Lean from the device's own channel, or worked out from the GPS (labelled so). */
  leanSource: z.enum(['device', 'gps']),
  corners: z.array(coachedCornerSchema),
  tips: z.array(z.object({ corner: z.string(), gainS: z.number(), text: z.string() })).max(3),
  /** The ideal lap: which laps make it, and where pieces of two laps join (where their speed and line meet). */
  ideal: z.object({
    seconds: nullableNumber,
    laps: z.array(z.string().nullable()),
    joins: z.array(
      z.object({ atM: z.number(), from: z.string(), to: z.string(), kmhApart: z.number(), metresApart: z.number() }),
    ),
  }),
  /** The lap's g-g points (lateral g, positive to the right; longitudinal g, positive speeding up) and the rider's envelope by direction (from ahead, clockwise). */
  gg: z.object({ lateral: z.array(z.number()), longitudinal: z.array(z.number()), envelope: z.array(z.number()) }),
  /** Speed (km/h) and lean (°) along the track for the lap and the reference, every `stepM` metres from the line. */
  profile: z.object({
    stepM: z.number(),
    speed: z.tuple([z.array(nullableNumber), z.array(nullableNumber)]),
    lean: z.tuple([z.array(nullableNumber), z.array(nullableNumber)]),
  }),
  /** When the lap studied began, ms since the session's first fix (the video's clock). */
  lapStartMs: z.number(),
});
export type CoachingResponse = z.infer<typeof coachingResponseSchema>;

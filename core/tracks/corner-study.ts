// A session's laps measured corner by corner, once per session (the analysis job): the corner
// study of issue 62, with the rider's grip envelope and each corner's consistency.
import { round, usualHz } from './corner-accuracy';
import { ENVELOPE_BIN_KMH, measureCorner, type CornerStudy } from './corner-measure';
import { lapChannels, type LeanSource } from './lap-channels';
import { lapOnGrid, type LapOnGrid } from './lap-grid';
import { continuousTime, type Trace } from './lap-timing';
import { curvature } from './track-line';
import type { TrackAnalysis, TrackDefinition } from './track-analysis';

const ENVELOPE_DIRECTIONS = 36;
/** The envelope is this quantile of combined g in each bin (one noisy fix does not set it). */
const ENVELOPE_QUANTILE = 0.98;
/** A lap's g-g points: about this many a second (a plot, not the trace). */
const GG_PER_SECOND = 5;

export interface LapStudy {
  number: number;
  seconds: number;
  corners: CornerStudy[];
  /** Speed and lean on the position grid (lap-grid.ts), for the charts against the reference. */
  grid: Pick<LapOnGrid, 'speed' | 'lean'>;
  /** [lateral g, longitudinal g] a few times a second, for the g-g plot. */
  gg: [number, number][];
}

/** A session's laps measured corner by corner, and the rider's envelope: kept per session. */
export interface SessionStudy {
  hz: number;
  /** Where lean comes from: the device's roll, or GPS speed on the track's curvature; null never. */
  leanSource: LeanSource;
  laps: LapStudy[];
  /** The rider's best combined g at each speed (bins of ENVELOPE_BIN_KMH from 0). */
  envelopeG: number[];
  /** The rider's best g in each direction of the g-g plane (ENVELOPE_DIRECTIONS, from straight ahead, clockwise). */
  ggEnvelope: number[];
  /** Each corner's spread over the flying laps: braking point (m) and minimum speed (km/h), standard deviations. */
  consistency: { corner: number; laps: number; brakeSpreadM: number | null; minSpreadKmh: number | null }[];
  /** The ideal lap: which lap gave each corner's section. */
  ideal: { seconds: number | null; laps: (number | null)[] };
  bestLap: number | null;
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : 0;
}

/** Sample standard deviation; null with fewer than three values. */
function spread(values: readonly number[]): number | null {
  if (values.length < 3) return null;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return round(Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / (values.length - 1)), 1);
}

/**
 * Every complete lap of a session measured corner by corner, the rider's grip envelope over its
 * flying laps, and each corner's consistency: computed once per session (the analysis job).
 */
export function studySession(recorded: Trace, track: TrackDefinition, analysis: TrackAnalysis): SessionStudy {
  const time = continuousTime(recorded);
  const hz = usualHz(recorded, time);
  const source: LeanSource = recorded.roll?.subarray(0, recorded.count).some((v) => v !== 0) ? 'device' : 'gps';
  const kappa = curvature(track.line.x, track.line.y);
  const complete = analysis.laps.filter((l) => l.complete);
  const channels = complete.map((l) => lapChannels(recorded, time, track.line, kappa, l, source));

  // The rider's envelope: the best combined g at each speed, over the flying laps' clean fixes.
  const bySpeed: number[][] = [];
  const byDirection: number[][] = Array.from({ length: ENVELOPE_DIRECTIONS }, () => []);
  complete.forEach((l, k) => {
    if (l.kind !== 'flying') return;
    const ch = channels[k]!;
    for (let j = 0; j < ch.v.length; j++) {
      if (ch.weak[j]) continue;
      const g = Math.hypot(ch.ax[j]!, ch.ay[j]!);
      const bin = Math.floor((ch.v[j]! * 3.6) / ENVELOPE_BIN_KMH);
      (bySpeed[bin] ??= []).push(g);
      byDirection[directionOf(ch.ay[j]!, ch.ax[j]!)]!.push(g);
    }
  });
  const envelopeG = Array.from(bySpeed, (gs) =>
    gs
      ? round(
          quantile(
            gs.sort((a, b) => a - b),
            ENVELOPE_QUANTILE,
          ),
          2,
        )
      : 0,
  );
  const ggEnvelope = byDirection.map((gs) =>
    round(
      quantile(
        gs.sort((a, b) => a - b),
        ENVELOPE_QUANTILE,
      ),
      2,
    ),
  );

  const laps = complete.map((l, k): LapStudy => {
    const ch = channels[k]!;
    const corners = track.corners.flatMap((c) => {
      const section = analysis.sections.find((x) => x.corner === c.number);
      return section ? [measureCorner(ch, c, section, l.seconds, track.line.length, hz, envelopeG)] : [];
    });
    const gg: [number, number][] = [];
    const every = Math.max(1, Math.round(hz / GG_PER_SECOND));
    for (let j = 0; j < ch.v.length; j += every) if (!ch.weak[j]) gg.push([round(ch.ay[j]!, 2), round(ch.ax[j]!, 2)]);
    const { speed, lean } = lapOnGrid(recorded, time, track.line, l);
    return { number: l.number, seconds: l.seconds, corners, gg, grid: { speed, lean } };
  });

  const flying = laps.filter((_, k) => complete[k]!.kind === 'flying');
  const consistency = track.corners.map((c) => {
    const measured = flying.flatMap((l) => l.corners.filter((x) => x.corner === c.number && x.clean));
    return {
      corner: c.number,
      laps: measured.length,
      brakeSpreadM: spread(measured.flatMap((x) => (x.brakeStartM === null ? [] : [x.brakeStartM]))),
      minSpreadKmh: spread(measured.map((x) => x.minKmh)),
    };
  });
  return {
    hz,
    leanSource: source,
    laps,
    envelopeG,
    ggEnvelope,
    consistency,
    ideal: { seconds: analysis.ideal.seconds, laps: analysis.ideal.sections.map((s) => s.lap) },
    bestLap: analysis.bestLap,
  };
}

/** The envelope's direction bin of a point of the g-g plane (0: speeding up, clockwise). */
function directionOf(lateral: number, longitudinal: number): number {
  const angle = Math.atan2(lateral, longitudinal);
  return (
    Math.floor(((angle + 2 * Math.PI) % (2 * Math.PI)) / ((2 * Math.PI) / ENVELOPE_DIRECTIONS)) % ENVELOPE_DIRECTIONS
  );
}

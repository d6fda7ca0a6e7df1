import type { AnalyzedLap, Segment } from './track-analysis';

/** One segment of a lap against the same segment of a reference lap. */
interface SegmentDelta {
  segment: string;
  kind: Segment['kind'];
  corner: number | null;
  /** Positive: the lap lost time there. */
  deltaSeconds: number;
  /** In a corner: metres earlier the lap began braking (negative: later); null where either did not brake. */
  brakedEarlierM: number | null;
  /** In a corner: km/h faster at the apex (negative: slower). */
  apexKmh: number | null;
  /** In a corner: km/h faster on the way out. */
  exitKmh: number | null;
  /** On a straight: km/h more top speed. */
  topKmh: number | null;
}

export interface LapComparison {
  lap: number;
  reference: number;
  deltaSeconds: number;
  /** Every segment, largest loss first. */
  segments: SegmentDelta[];
}

/**
 * Where a lap lost (or gained) time against a reference lap of the same track, segment by
 * segment, with what differed there. Both laps must be complete (cut into the same segments).
 */
export function compareLaps(lap: AnalyzedLap, reference: AnalyzedLap, segments: readonly Segment[]): LapComparison {
  const rows = segments.map((segment, k): SegmentDelta => {
    const row: SegmentDelta = {
      segment: segment.id,
      kind: segment.kind,
      corner: segment.corner,
      deltaSeconds: lap.segmentSeconds[k]! - reference.segmentSeconds[k]!,
      brakedEarlierM: null,
      apexKmh: null,
      exitKmh: null,
      topKmh: null,
    };
    if (segment.corner === null) return { ...row, topKmh: lap.segmentTopKmh[k]! - reference.segmentTopKmh[k]! };
    const mine = lap.corners.find((c) => c.corner === segment.corner);
    const theirs = reference.corners.find((c) => c.corner === segment.corner);
    if (!mine || !theirs) return row;
    // Where along the track each began braking: the two laps' slowest points can lie metres apart.
    const [mineAt, theirsAt] = [mine, theirs].map((c) =>
      c.brakeBeforeApexM === null ? null : c.apexM - c.brakeBeforeApexM,
    );
    return {
      ...row,
      brakedEarlierM: mineAt != null && theirsAt != null ? theirsAt - mineAt : null,
      apexKmh: mine.minKmh - theirs.minKmh,
      exitKmh: mine.exitKmh - theirs.exitKmh,
    };
  });
  return {
    lap: lap.number,
    reference: reference.number,
    deltaSeconds: lap.seconds - reference.seconds,
    segments: rows.sort((a, b) => b.deltaSeconds - a.deltaSeconds),
  };
}

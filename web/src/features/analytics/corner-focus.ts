// Where the map and the charts zoom to: a segment of the track, or a corner of the study.
import type { TrackAnalysisResponse } from '#core/contracts/tracks.contract.ts';
import type { CoachedCorner } from './coaching';

export interface CornerFocus {
  /** The segment shown (T3, R3). */
  segment: string;
  fromM: number;
  toM: number;
  lat: number;
  lon: number;
  radiusM: number;
}

/** Where a segment of the track is, for the map and the charts to zoom to. */
export function focusOf(data: TrackAnalysisResponse, segmentId: string): CornerFocus | null {
  const segment = data.segments.find((s) => s.id === segmentId);
  if (!segment) return null;
  const corner = data.corners.find((c) => c.number === segment.corner);
  // A straight: between the apexes of the corners either side of it.
  const after = Number(segmentId.slice(1));
  const ends = corner
    ? [corner, corner]
    : [
        data.corners.find((c) => c.number === after),
        data.corners.find((c) => c.number === after + 1) ?? data.corners[0],
      ];
  const [a, b] = ends;
  if (!a || !b) return null;
  const span = segment.toM - segment.fromM;
  return {
    segment: segmentId,
    fromM: segment.fromM - 40,
    toM: segment.toM + 40,
    lat: (a.apex.lat + b.apex.lat) / 2,
    lon: (a.apex.lon + b.apex.lon) / 2,
    radiusM: Math.max(120, span / 2 + 60),
  };
}

/** Where a corner of the study is, for the map, the charts and the video to go to: its approach and exit too. */
export function focusOfCorner(c: Pick<CoachedCorner, 'name' | 'startM' | 'endM' | 'apex'>): CornerFocus {
  return {
    segment: c.name,
    fromM: c.startM - 150,
    toM: c.endM + 80,
    lat: c.apex.lat,
    lon: c.apex.lon,
    radiusM: Math.max(150, (c.endM - c.startM) / 2 + 120),
  };
}

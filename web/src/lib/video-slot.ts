/**
 * What the analytics and compare pages hand the rider's video (issue 37), the video feature's
 * components taking it: shared here because features do not import each other. The app layer
 * (app/video-slots.tsx) joins them, the video code loaded only where it is used.
 */
import type { ComponentType } from 'react';
import type { LapSegment } from '#core/analysis/gps-analysis.ts';
import type { CompareResponse } from '#core/contracts/progress.contract.ts';
import type { SessionAddress } from '#core/contracts/session-paths.ts';
import type { GpsColumns } from '#core/formats/gps-columns.ts';

export interface SessionVideoProps {
  session: SessionAddress;
  c: GpsColumns;
  /** The session's laps (the lap chart's segments), in order. */
  laps: readonly LapSegment[];
  /** The lap the charts measure against (corners are found on it when no lap is playing). */
  reference: LapSegment;
  /** The best lap (the export's delta); null without one. */
  best: LapSegment | null;
  corners: readonly { number: number; apex: { lat: number; lon: number } }[];
  /** The page's one cursor (a sample), which playing moves. */
  cursorIndex: number | null;
  onCursorIndex: (index: number | null) => void;
  /** A sample the rider clicked on a chart or the map: the video seeks there (`seq` tells a repeat click). */
  seek: { index: number; seq: number } | null;
}

export interface LapVideosProps {
  data: CompareResponse;
  /** The position (m along the track's line) the videos show, for the charts' cursor. */
  onPosition: (positionM: number | null) => void;
  /** A position the rider clicked on a chart: both videos go there. */
  seek: { positionM: number; seq: number } | null;
}

export type SessionVideoSlot = ComponentType<SessionVideoProps>;
export type LapVideosSlot = ComponentType<LapVideosProps>;

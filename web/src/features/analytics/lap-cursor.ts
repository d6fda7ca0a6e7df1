// The cursor the map, the charts and the video share: a sample of the GPS file, shown on the lap it
// falls in, and the rider's picks (a click on a chart or the map), which send the video there.
import { useCallback, useState } from 'react';
import type { LapSegment } from '#core/analysis/gps-analysis.ts';
import type { GpsColumns } from '#core/formats/gps-columns.ts';
import { sampleAtDistance } from './chart-data';

export function useLapCursor(
  c: GpsColumns | undefined,
  segments: readonly LapSegment[],
  reference: LapSegment | undefined,
) {
  const [cursorIndex, setCursorIndex] = useState<number | null>(null);
  // The lap the cursor is on (the video may play any of them), else the reference.
  const cursorLap =
    (cursorIndex !== null && segments.find((s) => cursorIndex >= s.start && cursorIndex < s.end)) || reference;
  const cursorDistance =
    c && cursorLap && cursorIndex !== null && cursorIndex >= cursorLap.start && cursorIndex < cursorLap.end
      ? c.meterSum[cursorIndex]! - c.meterSum[cursorLap.start]!
      : null;
  const onChartCursor = useCallback(
    (x: number | null) => setCursorIndex(x === null || !c || !reference ? null : sampleAtDistance(c, reference, x)),
    [c, reference],
  );
  // A click on a chart or the map: the video (when there is one) goes there, on the lap it plays.
  const [seek, setSeek] = useState<{ index: number; seq: number } | null>(null);
  const pickIndex = useCallback((index: number) => setSeek((s) => ({ index, seq: (s?.seq ?? 0) + 1 })), []);
  const onChartPick = useCallback(
    (x: number) => c && cursorLap && pickIndex(sampleAtDistance(c, cursorLap, x)),
    [c, cursorLap, pickIndex],
  );
  return { cursorIndex, setCursorIndex, cursorDistance, onChartCursor, seek, pickIndex, onChartPick };
}

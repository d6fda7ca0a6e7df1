// The analysis's lap charts against distance: speed, lean and the time gap to the reference lap.
import { useMemo, useRef, type ComponentProps } from 'react';
import type { GpsColumns } from '#core/formats/gps-columns.ts';
import type { Units } from '#core/units.ts';
import { UPlotChart, type ChartSeries } from '#web/components/uplot-chart.tsx';
import { useT } from '#web/i18n/messages.ts';
import { useNearViewport } from '#web/lib/near-viewport.ts';
import { unitLabel } from '#web/lib/units-format.ts';
import type { LapSegment } from '#core/analysis/gps-analysis.ts';
import { deltasOnDistanceGrid, distanceGrid, lapKey, lapsOnDistanceGrid } from './chart-data';

const PALETTE = ['#b388ff', '#4dd0e1', '#ffb74d', '#81c784', '#f06292', '#fff176', '#90caf9', '#ff8a65'];

/** A chart's points: one x array (distance, m) and a y array per series. */
type Points = { x: number[]; ys: (number | null)[][] };
const NO_POINTS: Points = { x: [], ys: [] };

/**
 * The chosen laps' charts, each in its colour (the best lap in the first); the gap chart against
 * `reference`, when another lap is chosen.
 */
export function LapCharts(props: {
  c: GpsColumns;
  chosen: LapSegment[];
  reference: LapSegment;
  bestKey: string | null;
  units: Units;
  xLabel: string;
  onCursorX: (x: number | null) => void;
  onPickX: ((x: number) => void) | undefined;
  cursorX: number | null;
  xRange: [number, number] | null;
  /** The session's file recorded lean (most GPX and phone loggers do not: no chart of nothing). */
  lean: boolean;
}) {
  const t = useT();
  const { c, chosen, reference, bestKey, units, xLabel, onCursorX, onPickX, xRange } = props;
  const series = useMemo<ChartSeries[]>(
    () =>
      chosen.map((l, i) => ({
        label: lapKey(l),
        stroke: lapKey(l) === bestKey ? PALETTE[0]! : PALETTE[(i % (PALETTE.length - 1)) + 1]!,
        width: lapKey(l) === bestKey ? 3 : 2,
      })),
    [chosen, bestKey],
  );
  const others = useMemo(() => chosen.filter((l) => l !== reference), [chosen, reference]);
  const deltaSeries = useMemo(() => others.map((l) => series[chosen.indexOf(l)]!), [others, series, chosen]);
  // Each chart's points are computed by its own part, once the rider scrolls to it (below).
  const speed = useMemo(() => () => lapsOnDistanceGrid(c, chosen, 'speed'), [c, chosen]);
  const roll = useMemo(() => () => lapsOnDistanceGrid(c, chosen, 'roll'), [c, chosen]);
  const deltas = useMemo(
    () => () => {
      const x = distanceGrid(c, chosen);
      return { x, ys: deltasOnDistanceGrid(c, others, reference, x) };
    },
    [c, chosen, others, reference],
  );
  const shared = { xLabel, units, xIn: 'distance', syncKey: 'dist', onCursorX, onPickX, xRange } as const;
  return (
    <>
      <LapChart
        {...shared}
        points={speed}
        testId="chart-speed"
        title={t('analytics.chartSpeed')}
        yLabel={unitLabel('speed', units)}
        yIn="speed"
        series={series}
        cursorX={props.cursorX}
      />
      {props.lean && (
        <LapChart
          {...shared}
          points={roll}
          testId="chart-lean"
          title={t('analytics.chartLean')}
          yLabel={t('analytics.axisLean')}
          series={series}
        />
      )}
      {deltaSeries.length > 0 && (
        <LapChart
          {...shared}
          points={deltas}
          testId="chart-delta"
          title={t('analytics.chartDelta')}
          yLabel={t('analytics.axisDelta')}
          series={deltaSeries}
          yDigits={2}
        />
      )}
    </>
  );
}

/**
 * One lap chart, below the map on a phone: its points are computed and it is drawn when the rider
 * scrolls to it, not while the page loads (a full lap is thousands of samples to lay on the grid).
 */
function LapChart({
  points,
  ...chart
}: Omit<ComponentProps<typeof UPlotChart>, 'x' | 'ys' | 'ahead'> & { points: () => Points }) {
  const place = useRef<HTMLDivElement>(null);
  const near = useNearViewport(place, '0px');
  const { x, ys } = useMemo(() => (near ? points() : NO_POINTS), [near, points]);
  return (
    <div ref={place}>
      <UPlotChart {...chart} x={x} ys={ys} ahead="0px" />
    </div>
  );
}

// The analysis's lap charts against distance: speed, lean and the time gap to the reference lap.
import type { GpsColumns } from '#core/formats/gps-columns.ts';
import type { Units } from '#core/units.ts';
import { UPlotChart, type ChartSeries } from '#web/components/uplot-chart.tsx';
import { useT } from '#web/i18n/messages.ts';
import { unitLabel } from '#web/lib/units-format.ts';
import type { LapSegment } from '#core/analysis/gps-analysis.ts';
import { deltasOnDistanceGrid, lapKey, lapsOnDistanceGrid } from './chart-data';

const PALETTE = ['#b388ff', '#4dd0e1', '#ffb74d', '#81c784', '#f06292', '#fff176', '#90caf9', '#ff8a65'];

/** The chosen laps on one distance grid, each in its colour (the best lap in the first), and their gaps to `reference`. */
export function lapCharts(c: GpsColumns, chosen: LapSegment[], reference: LapSegment, bestKey: string | null) {
  const speed = lapsOnDistanceGrid(c, chosen, 'speed');
  const roll = lapsOnDistanceGrid(c, chosen, 'roll');
  const others = chosen.filter((l) => l !== reference);
  const deltas = deltasOnDistanceGrid(c, others, reference, speed.x);
  const series: ChartSeries[] = chosen.map((l, i) => ({
    label: lapKey(l),
    stroke: lapKey(l) === bestKey ? PALETTE[0]! : PALETTE[(i % (PALETTE.length - 1)) + 1]!,
    width: lapKey(l) === bestKey ? 3 : 2,
  }));
  const deltaSeries = others.map((l) => series[chosen.indexOf(l)]!);
  return { speed, roll, deltas, series, deltaSeries };
}

export function LapCharts(props: {
  charts: ReturnType<typeof lapCharts>;
  units: Units;
  xLabel: string;
  onCursorX: (x: number | null) => void;
  onPickX: ((x: number) => void) | undefined;
  cursorX: number | null;
  xRange: [number, number] | null;
}) {
  const t = useT();
  const { charts, units, xLabel, onCursorX, onPickX, xRange } = props;
  // Below the map on a phone: each is built when the rider scrolls to it, not while the page loads.
  const shared = { xLabel, units, xIn: 'distance', syncKey: 'dist', onCursorX, onPickX, xRange, ahead: '0px' } as const;
  return (
    <>
      <UPlotChart
        {...shared}
        testId="chart-speed"
        title={t('analytics.chartSpeed')}
        yLabel={unitLabel('speed', units)}
        yIn="speed"
        x={charts.speed.x}
        ys={charts.speed.ys}
        series={charts.series}
        cursorX={props.cursorX}
      />
      <UPlotChart
        {...shared}
        testId="chart-lean"
        title={t('analytics.chartLean')}
        yLabel={t('analytics.axisLean')}
        x={charts.roll.x}
        ys={charts.roll.ys}
        series={charts.series}
      />
      {charts.deltaSeries.length > 0 && (
        <UPlotChart
          {...shared}
          testId="chart-delta"
          title={t('analytics.chartDelta')}
          yLabel={t('analytics.axisDelta')}
          x={charts.speed.x}
          ys={charts.deltas}
          series={charts.deltaSeries}
          yDigits={2}
        />
      )}
    </>
  );
}

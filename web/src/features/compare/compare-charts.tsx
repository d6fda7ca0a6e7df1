// The comparison's charts along the track (speed, lean, the gap).
import type { CompareResponse } from '#core/contracts/progress.contract.ts';
import { formatDdmmyyyy } from '#core/formats/dates.ts';
import type { Units } from '#core/units.ts';
import { alongTheTrack, UPlotChart, type ChartSeries } from '#web/components/uplot-chart.tsx';
import { hasLean } from '#web/lib/format.ts';
import { useT, type Translate } from '#web/i18n/messages.ts';
import { unitLabel } from '#web/lib/units-format.ts';

export const LAP_COLOUR = '#ffb74d';

/** A lap as the comparison names it: its heat and number, its day, and whether it is a friend's. */
export function lapName(t: Translate, l: CompareResponse['lap']): string {
  const lap = `${l.heat}${l.number}`;
  return t(l.shared ? 'history.compareSharedLabel' : 'history.compareLapLabel', {
    lap,
    date: formatDdmmyyyy(l.date),
  });
}

export function CompareCharts(props: {
  data: CompareResponse;
  referenceColour: string;
  cursorX?: number | null;
  onPickX?: (x: number) => void;
  units: Units;
}) {
  const t = useT();
  const { data, referenceColour, cursorX, onPickX, units } = props;
  // What the charts share: the position along the track on x, and one cursor.
  const along = { ...alongTheTrack(t, units, data.x, 'compare'), onPickX };
  const series: ChartSeries[] = [
    { label: lapName(t, data.lap), stroke: LAP_COLOUR, width: 2 },
    { label: lapName(t, data.reference), stroke: referenceColour, width: 2, dash: [6, 4] },
  ];
  return (
    <div className="chart-grid">
      <UPlotChart
        testId="compare-speed"
        title={t('history.chartSpeed')}
        yLabel={unitLabel('speed', units)}
        yIn="speed"
        ys={data.speed}
        series={series}
        cursorX={cursorX}
        {...along}
      />
      {hasLean(data.lean) && (
        <UPlotChart
          testId="compare-lean"
          title={t('history.chartLean')}
          yLabel={t('history.axisLean')}
          ys={data.lean}
          series={series}
          {...along}
        />
      )}
      <UPlotChart
        testId="compare-delta-chart"
        title={t('history.chartDelta')}
        yLabel={t('history.axisDelta')}
        ys={[data.delta]}
        series={[{ label: t('history.chartDelta'), stroke: '#ffd54f', width: 2 }]}
        yDigits={2}
        {...along}
      />
    </div>
  );
}

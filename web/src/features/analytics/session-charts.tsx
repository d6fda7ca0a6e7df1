import { useMemo } from 'react';
import type { AnalysisResponse } from '#core/contracts/sessions.contract.ts';
import type { GpsColumns } from '#core/formats/gps-columns.ts';
import type { Units } from '#core/units.ts';
import { useT } from '#web/i18n/messages.ts';
import { unitLabel } from '#web/lib/units-format.ts';
import { lapKey, sessionSeries } from './chart-data';
import type { ShownLap } from './shown-laps';
import { UPlotChart } from '#web/components/uplot-chart.tsx';

/** The whole session: each flying lap's time in order, and the speed over the day (its figures computed when shown). */
export function SessionCharts(props: {
  c: GpsColumns;
  segments: AnalysisResponse['laps'];
  shown: Map<string, ShownLap>;
  units?: Units;
}) {
  const t = useT();
  const { c, segments, shown } = props;
  const charts = useMemo(() => {
    // Flying laps only: out- and in-laps and partial pieces are no point on a chart of lap times.
    const flying = segments.flatMap((l) => {
      const lap = shown.get(lapKey(l));
      return lap?.kind === 'flying' && lap.seconds !== null ? [lap.seconds] : [];
    });
    const progression = { x: flying.map((_, i) => i + 1), ys: [flying] };
    return { progression, whole: sessionSeries(c, 'speed', 1200) };
  }, [c, segments, shown]);
  return (
    <div className="analytics-grid">
      <UPlotChart
        testId="chart-progression"
        title={t('analytics.chartProgression')}
        xLabel={t('analytics.axisLap')}
        yLabel={t('analytics.axisLapTime')}
        x={charts.progression.x}
        ys={charts.progression.ys}
        series={[{ label: t('analytics.colTime'), stroke: '#ffd54f', points: true }]}
        yDigits={3}
        height={180}
      />
      <UPlotChart
        testId="chart-session"
        title={t('analytics.chartSession')}
        xLabel={t('analytics.axisMinutes')}
        yLabel={unitLabel('speed', props.units ?? 'metric')}
        units={props.units}
        yIn="speed"
        x={charts.whole.x}
        ys={[charts.whole.y]}
        series={[{ label: unitLabel('speed', props.units ?? 'metric'), stroke: '#4dd0e1', width: 1 }]}
        xDigits={1}
        height={180}
      />
    </div>
  );
}

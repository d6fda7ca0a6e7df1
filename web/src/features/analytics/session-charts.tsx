import { useMemo } from 'react';
import type { AnalysisResponse, LapsResponse } from '../../../../core/contracts/sessions.contract';
import type { GpsColumns } from '../../../../core/formats/gps-columns';
import { t } from '../../i18n/messages';
import { sessionSeries } from './chart-data';
import { UPlotChart } from './uplot-chart';

/** The whole session: each flying lap's time in order, and the speed over the day (its figures computed when shown). */
export function SessionCharts(props: { c: GpsColumns; segments: AnalysisResponse['laps']; laps: LapsResponse | undefined }) {
  const a = t.analytics;
  const { c, segments, laps } = props;
  const charts = useMemo(() => {
    const flying = segments.filter((l) => !l.outLap);
    const lapMs = (l: (typeof segments)[number]) => laps?.laps.find((x) => x.heat === l.heat && x.lapCount === l.lapCount)?.lapTimeMs ?? l.durationMs;
    const progression = { x: flying.map((_, i) => i + 1), ys: [flying.map((l) => lapMs(l) / 1000)] };
    return { progression, whole: sessionSeries(c, 'speed', 1200) };
  }, [c, segments, laps]);
  return (
    <div className="analytics-grid">
      <UPlotChart
        testId="chart-progression"
        title={a.chartProgression}
        xLabel={a.axisLap}
        yLabel={a.axisLapTime}
        x={charts.progression.x}
        ys={charts.progression.ys}
        series={[{ label: a.colTime, stroke: '#ffd54f', points: true }]}
        yDigits={3}
        height={180}
      />
      <UPlotChart
        testId="chart-session"
        title={a.chartSession}
        xLabel={a.axisMinutes}
        yLabel={a.axisSpeed}
        x={charts.whole.x}
        ys={[charts.whole.y]}
        series={[{ label: a.axisSpeed, stroke: '#4dd0e1', width: 1 }]}
        xDigits={1}
        height={180}
      />
    </div>
  );
}

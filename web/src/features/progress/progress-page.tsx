// 'Evolução': a rider's days at one track, charted and tabled, and the corners that changed most.
import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { ProgressResponse } from '#core/contracts/progress.contract.ts';
import { formatDdmmyyyy } from '#core/formats/dates.ts';
import { formatLapTime } from '#core/formats/lap-six.ts';
import { Page } from '#web/components/ui/page.tsx';
import { type Translate, useT } from '#web/i18n/messages.ts';
import { decimal } from '#web/lib/format.ts';
import { useCornerProgress, useMostRecentSession, useProgress } from '#web/lib/history-api.ts';
import { UPlotChart } from '#web/components/uplot-chart.tsx';
import { formatGap } from '#web/lib/format.ts';
import { ErrorAlert, Loading } from '#web/components/ui/query-status.tsx';
import { SelectField } from '#web/components/ui/select-field.tsx';

const ms = (v: number | null) => (v === null ? '—' : formatLapTime(v));
const spread = (t: Translate, v: number | null) =>
  v === null ? '—' : t('history.consistencyValue', { s: decimal(v / 1000, 3) });

/**
 * 'Evolução': one track's days, oldest first: best lap, ideal lap and the spread of the flying
 * laps, charted and tabled (the table is what a screen reader reads); then the corners that
 * improved most and least between two chosen days.
 */
export function ProgressPage() {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const track = params.get('pista');
  const latest = useMostRecentSession();
  // One circuit is one track, whatever each session calls it: chosen by any of its names.
  const tracks = { ...latest, data: latest.data?.circuits };
  const circuit = tracks.data?.find((c) => track !== null && c.tracks.includes(track));
  const progress = useProgress(track);
  const chosen = track ?? latest.data?.sessions[0]?.track ?? null;
  // Opened from the menu: the track of the rider's most recent session, nothing to choose first.
  useEffect(() => {
    if (!track && chosen) setParams({ pista: chosen }, { replace: true });
  }, [track, chosen, setParams]);
  const data = progress.data;

  return (
    <Page
      wide
      title={track ? t('history.progressFor', { track: circuit?.name ?? track }) : t('history.progressTitle')}
      menu={[
        { to: '/user', label: t('menu.home') },
        { to: '/sessoes', label: t('menu.minhasSessoes') },
        { to: '/comparar', label: t('menu.comparar') },
      ]}
    >
      {tracks.data && tracks.data.length > 0 && (
        <SelectField
          className="my-sessions-filter"
          id="progress-track"
          label={t('history.progressPick')}
          value={circuit?.tracks[0] ?? track ?? ''}
          onChange={(pista) => setParams({ pista })}
          options={tracks.data.map((c) => ({ value: c.tracks[0]!, label: c.name }))}
        />
      )}
      {tracks.data?.length === 0 && (
        <p className="empty-state">
          {t('history.empty')} <Link to="/importar">{t('history.importLink')}</Link>
        </p>
      )}
      {((progress.isPending && track) || tracks.isPending) && <Loading>{t('history.progressLoading')}</Loading>}
      <ErrorAlert error={progress.error ?? tracks.error} />
      {data && data.days.length === 0 && <p className="empty-state">{t('history.progressEmpty')}</p>}
      {data && data.days.length > 0 && <Progress data={data} />}
    </Page>
  );
}

function Progress({ data }: { data: ProgressResponse }) {
  const t = useT();
  const charts = useMemo(() => {
    const s = (v: number | null) => (v === null ? null : v / 1000);
    return {
      // Days by number on the x axis, labelled with their date (dd/mm).
      x: data.days.map((_, k) => k + 1),
      xFormat: (k: number) => (data.days[k - 1] ? formatDdmmyyyy(data.days[k - 1]!.date).slice(0, 5) : ''),
      times: [
        data.days.map((d) => s(d.bestLapMs)),
        data.days.map((d) => s(d.idealLapMs)),
        data.days.map((d) => s(d.meanLapMs)),
      ],
      spread: [data.days.map((d) => s(d.consistencyMs))],
    };
  }, [data]);
  const byDay = { xLabel: t('history.axisDay'), x: charts.x, xFormat: charts.xFormat, yDigits: 3 };
  return (
    <section aria-label={t('history.progressFor', { track: data.circuit?.name ?? data.track })}>
      {data.personalBest && (
        <dl className="summary">
          <div className="summary-item">
            <dt>{t('history.personalBest')}</dt>
            <dd className="time-pb" data-testid="progress-record">
              {formatLapTime(data.personalBest.lapTimeMs)}{' '}
              <span className="badge badge-pb">◆ {t('history.personalBestShort')}</span>
            </dd>
            <dd className="muted">{formatDdmmyyyy(data.personalBest.date)}</dd>
          </div>
        </dl>
      )}
      {data.days.length === 1 && <p className="notice">{t('history.progressOneDay')}</p>}
      <div className="chart-grid">
        <UPlotChart
          testId="progress-chart"
          title={t('history.chartTitle')}
          yLabel={t('history.axisLapTime')}
          ys={charts.times}
          series={[
            { label: t('history.seriesBest'), stroke: '#69f0ae', width: 3, points: true },
            { label: t('history.seriesIdeal'), stroke: '#b388ff', width: 2, points: true },
            { label: t('history.seriesMean'), stroke: '#ffd54f', width: 1, dash: [6, 4], points: true },
          ]}
          height={240}
          {...byDay}
        />
        {/* Consistency needs flying laps enough (history.consistencyHint): no chart of none. */}
        {data.days.some((d) => d.consistencyMs !== null) && (
          <UPlotChart
            testId="progress-spread"
            title={t('history.chartSpread')}
            yLabel={t('history.axisSpread')}
            ys={charts.spread}
            series={[{ label: t('history.seriesSpread'), stroke: '#4dd0e1', width: 2, points: true }]}
            height={180}
            {...byDay}
          />
        )}
      </div>
      <p className="muted">{t('history.consistencyHint')}</p>
      <div className="table-scroll" role="region" aria-label={t('history.tableTitle')} tabIndex={0}>
        <table className="data-table progress-table" data-testid="progress-table">
          <caption>{t('history.tableTitle')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('history.colDay')}</th>
              <th scope="col">{t('history.colBest')}</th>
              <th scope="col">{t('history.colIdeal')}</th>
              <th scope="col">{t('history.colConsistency')}</th>
              <th scope="col">{t('history.colFlying')}</th>
            </tr>
          </thead>
          <tbody>
            {data.days.map((d) => (
              <tr key={d.date} className={d.personalBest ? 'lap-pb' : undefined}>
                <th scope="row">
                  <Link to={`/laps?${new URLSearchParams({ hw: d.device, pista: d.track, data: d.date }).toString()}`}>
                    {formatDdmmyyyy(d.date)}
                  </Link>
                </th>
                <td className={d.personalBest ? 'time-pb' : undefined}>
                  <span className="lap-time">{ms(d.bestLapMs)}</span>
                  {d.personalBest && (
                    <span className="badge badge-pb" data-testid="personal-best">
                      ◆ {t('history.personalBest')}
                    </span>
                  )}
                </td>
                <td>
                  <span className="lap-time">{ms(d.idealLapMs)}</span>
                </td>
                <td>{spread(t, d.consistencyMs)}</td>
                <td className="num">{d.flyingLaps}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {data.days.length > 1 && <CornerProgress data={data} />}
    </section>
  );
}

function CornerProgress({ data }: { data: ProgressResponse }) {
  const t = useT();
  const [from, setFrom] = useState(data.days[0]!.date);
  const [to, setTo] = useState(data.days[data.days.length - 1]!.date);
  const corners = useCornerProgress(data.track, from, to);
  const c = corners.data;
  const gainOf = (n: number | null) => c?.corners.find((x) => x.corner === n)?.gainSeconds ?? 0;
  return (
    <section className="where-time-goes" aria-labelledby="corner-progress-title">
      <h2 id="corner-progress-title">{t('history.cornersTitle')}</h2>
      <div className="compare-pick">
        <DaySelect label={t('history.cornersFrom')} days={data.days} value={from} onChange={setFrom} />
        <DaySelect label={t('history.cornersTo')} days={data.days} value={to} onChange={setTo} />
      </div>
      {from === to && <p className="notice">{t('history.cornersSameDay')}</p>}
      {corners.isFetching && !c && <Loading>{t('history.cornersLoading')}</Loading>}
      <ErrorAlert error={corners.error} />
      {c && from !== to && (
        <>
          <ul className="corner-verdicts" data-testid="corner-verdicts">
            {c.mostImproved !== null && (
              <li>{t('history.mostImproved', { n: c.mostImproved, gain: formatGap(gainOf(c.mostImproved), 2) })}</li>
            )}
            {c.leastImproved !== null && (
              <li>
                {t('history.leastImproved', {
                  n: c.leastImproved,
                  gain: formatGap(gainOf(c.leastImproved), 2),
                })}
              </li>
            )}
          </ul>
          <div className="table-scroll" role="region" aria-label={t('history.cornersTitle')} tabIndex={0}>
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">{t('history.colCorner')}</th>
                  <th scope="col">{formatDdmmyyyy(c.from)}</th>
                  <th scope="col">{formatDdmmyyyy(c.to)}</th>
                  <th scope="col">{t('history.colGain')}</th>
                </tr>
              </thead>
              <tbody>
                {c.corners.map((x) => (
                  <tr key={x.corner}>
                    <th scope="row">T{x.corner}</th>
                    <td>{x.fromSeconds === null ? '—' : decimal(x.fromSeconds, 2)}</td>
                    <td>{x.toSeconds === null ? '—' : decimal(x.toSeconds, 2)}</td>
                    <td className={x.gainSeconds !== null && x.gainSeconds > 0 ? 'delta-gained' : 'delta-lost'}>
                      {x.gainSeconds === null ? '—' : formatGap(x.gainSeconds, 2)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

function DaySelect(props: {
  label: string;
  days: ProgressResponse['days'];
  value: string;
  onChange: (date: string) => void;
}) {
  return (
    <label>
      {props.label}
      <select value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {props.days.map((d) => (
          <option key={d.date} value={d.date}>
            {formatDdmmyyyy(d.date)}
          </option>
        ))}
      </select>
    </label>
  );
}

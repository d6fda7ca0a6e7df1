// What a shared link opens, signed in or not: one session's (or one lap's) laps, speed and lean.
import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import type { SharedLap, SharedView } from '#core/contracts/shares.contract.ts';
import { addressToQuery } from '#core/contracts/session-paths.ts';
import { formatDdmmyyyy } from '#core/formats/dates.ts';
import { formatLapTime } from '#core/formats/lap-six.ts';
import { Page } from '#web/components/ui/page.tsx';
import { useT } from '#web/i18n/messages.ts';
import { ErrorAlert, Loading } from '#web/components/ui/query-status.tsx';
import { SummaryItem } from '#web/components/ui/summary-item.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { decimal } from '#web/lib/format.ts';
import { useSharedLap, useSharedView } from '#web/lib/history-api.ts';
import { useMe } from '#web/lib/session.ts';
import { useUnits } from '#web/lib/preferences.ts';
import { formatSpeed, unitLabel } from '#web/lib/units-format.ts';
import { OwnLapPicker, type OwnLapChoice } from '#web/components/own-lap-picker.tsx';
import { alongTheTrack, UPlotChart } from '#web/components/uplot-chart.tsx';
import { hasLean } from '#web/lib/format.ts';

/**
 * What a shared link opens, signed in or not: the laps and figures of one session (or one lap),
 * a lap's speed and lean along the track and its line; nothing about whose they are. A signed-in
 * rider with sessions at the track lays it over one of their own laps.
 */
export function SharedPage() {
  const t = useT();
  const token = useParams().token ?? '';
  const view = useSharedView(token);
  const [lap, setLap] = useState<string | null>(null);
  const chosen = lap ?? view.data?.lap ?? null;
  const lapData = useSharedLap(token, view.data ? chosen : null);
  const gone = view.error instanceof ApiError && view.error.status === 404;
  const v = view.data;
  // The viewer's units: their own when signed in, else their browser's.
  const units = useUnits();

  return (
    <Page
      title={v ? `${t('history.sharedTitle')}: ${v.track}, ${formatDdmmyyyy(v.date)}` : t('history.sharedTitle')}
      menu={[{ to: '/', label: t('app.name') }]}
    >
      {view.isPending && <Loading>{t('history.sharedLoading')}</Loading>}
      {gone && (
        <p className="empty-state" data-testid="shared-gone">
          {t('history.sharedGone')}
        </p>
      )}
      {!gone && <ErrorAlert error={view.error} />}
      {v && (
        <section aria-label={`${v.track} ${formatDdmmyyyy(v.date)}`} data-testid="shared-view">
          {v.name && (
            <p className="share-name" data-testid="shared-name">
              {v.name}
            </p>
          )}
          <dl className="summary">
            <SummaryItem
              kind="best"
              label={v.lap ? t('history.sharedLapChart', { lap: v.lap }) : t('history.sharedBest')}
              data-testid="shared-best"
            >
              {v.bestLapSeconds === null ? '—' : formatLapTime(v.bestLapSeconds * 1000)}
            </SummaryItem>
            {v.idealLapSeconds !== null && (
              <SummaryItem kind="ideal" label={t('history.sharedIdeal')}>
                {formatLapTime(v.idealLapSeconds * 1000)}
              </SummaryItem>
            )}
            {v.topSpeedKmh !== null && (
              <SummaryItem label={t('analytics.topSpeed')} data-testid="shared-top-speed">
                {formatSpeed(v.topSpeedKmh, units)}
              </SummaryItem>
            )}
            {v.consistencyMs !== null && (
              <SummaryItem label={t('history.colConsistency')}>
                {t('history.consistencyValue', { s: decimal(v.consistencyMs / 1000, 3) })}
              </SummaryItem>
            )}
          </dl>
          {v.consistencyMs !== null && <p className="muted">{t('history.consistencyHint')}</p>}
          <SharedLaps
            view={v}
            chosen={lapData.data ? `${lapData.data.heat}${lapData.data.number}` : chosen}
            onChoose={setLap}
          />
          {lapData.data && <SharedLapCharts lap={lapData.data} />}
          <ErrorAlert error={lapData.error} />
          {/* A lap's link: what follows waits for the lap's charts, which come in above it, so
              that nothing on screen moves when they arrive. */}
          {!(v.lap && lapData.isPending) && (
            <CompareWithMine
              view={v}
              token={token}
              sharedLap={lapData.data ? `${lapData.data.heat}${lapData.data.number}` : null}
            />
          )}
        </section>
      )}
    </Page>
  );
}

function SharedLaps(props: { view: SharedView; chosen: string | null; onChoose: (lap: string) => void }) {
  const t = useT();
  return (
    <div className="table-scroll" role="region" aria-label={t('laps.tableLabel')} tabIndex={0}>
      <table className="laps-table" data-testid="shared-laps">
        <thead>
          <tr>
            <th scope="col">{t('history.compareLap')}</th>
            <th scope="col">{t('laps.colTempo')}</th>
            {props.view.bestSectorSeconds.map((_, i) => (
              <th key={i} scope="col">
                {t('laps.sector', { n: i + 1 })}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.view.laps.map((l) => {
            const key = `${l.heat}${l.number}`;
            return (
              <tr key={key} className={`lap-row lap-${l.kind}${l.best ? ' lap-best' : ''}`}>
                <td>
                  {l.complete ? (
                    <button
                      type="button"
                      className="btn btn-secondary btn-small"
                      aria-pressed={props.chosen === key}
                      aria-label={t('history.sharedShowLap', { lap: key })}
                      onClick={() => props.onChoose(key)}
                    >
                      {key}
                    </button>
                  ) : (
                    key
                  )}
                </td>
                <td className="time">
                  <span className="lap-time">{l.seconds === null ? '—' : formatLapTime(l.seconds * 1000)}</span>
                  {l.best && <span className="badge badge-best">★ {t('laps.bestMarker')}</span>}
                  {l.kind === 'out' && <span className="badge">{t('laps.outLap')}</span>}
                  {l.kind === 'in' && <span className="badge">{t('laps.inLap')}</span>}
                  {l.kind === 'partial' && (
                    <span className="badge" title={t('tracks.partialHint')}>
                      {t('tracks.partialLap')}
                    </span>
                  )}
                </td>
                {props.view.bestSectorSeconds.map((bestS, i) => {
                  const s = l.sectorSeconds[i];
                  const best = s !== undefined && l.kind === 'flying' && s === bestS;
                  return (
                    <td key={i} className={best ? 'time sector-best' : 'time'}>
                      <span className="sector-time">{s === undefined ? '—' : formatLapTime(s * 1000)}</span>
                      {best && <span className="visually-hidden"> ({t('laps.bestSectorMarker')})</span>}
                      {best && <span aria-hidden="true"> ★</span>}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function SharedLapCharts({ lap }: { lap: SharedLap }) {
  const t = useT();
  // The viewer's units: their own when signed in, else their browser's.
  const units = useUnits();
  const along = alongTheTrack(t, units, lap.x, 'shared');
  const name = t('history.sharedLapChart', { lap: `${lap.heat}${lap.number}` });
  const series = [{ label: name, stroke: '#4dd0e1', width: 2 }];
  return (
    <div className="chart-grid">
      <div>
        <UPlotChart
          testId="shared-speed"
          title={t('history.chartSpeed')}
          yLabel={unitLabel('speed', units)}
          yIn="speed"
          ys={[lap.speed]}
          series={series}
          {...along}
        />
        {hasLean([lap.lean]) && (
          <UPlotChart
            testId="shared-lean"
            title={t('history.chartLean')}
            yLabel={t('history.axisLean')}
            ys={[lap.lean]}
            series={series}
            {...along}
          />
        )}
      </div>
      <LapPath lap={lap} />
    </div>
  );
}

/** The lap's line, north up, its start marked (a thumb-thick stroke). */
function LapPath({ lap }: { lap: SharedLap }) {
  const t = useT();
  const d = useMemo(() => {
    if (lap.path.length < 2) return null;
    const midLat = lap.path.reduce((a, p) => a + p[0], 0) / lap.path.length;
    const kx = Math.cos((midLat * Math.PI) / 180);
    const xs = lap.path.map((p) => p[1] * kx);
    const ys = lap.path.map((p) => -p[0]);
    const [minX, minY] = [Math.min(...xs), Math.min(...ys)];
    const span = Math.max(Math.max(...xs) - minX, Math.max(...ys) - minY) || 1;
    const pts = xs.map((x, k) => [10 + ((x - minX) / span) * 380, 10 + ((ys[k]! - minY) / span) * 380] as const);
    return { line: pts.map(([x, y], k) => `${k ? 'L' : 'M'}${x.toFixed(1)} ${y.toFixed(1)}`).join(''), start: pts[0]! };
  }, [lap]);
  if (!d) return null;
  const label = t('history.sharedMap', { lap: `${lap.heat}${lap.number}` });
  return (
    <svg className="lap-path" viewBox="0 0 400 400" role="img" aria-label={label}>
      <title>{label}</title>
      <path d={d.line} fill="none" stroke="#ffd54f" strokeWidth={5} strokeLinejoin="round" strokeLinecap="round" />
      <circle cx={d.start[0]} cy={d.start[1]} r={9} fill="#69f0ae" />
    </svg>
  );
}

/** "Comparar com minhas voltas": a signed-in rider's own laps at the same track, against the shared one. */
function CompareWithMine(props: { view: SharedView; token: string; sharedLap: string | null }) {
  const t = useT();
  const me = useMe();
  if (me.isPending) return null;
  if (!me.data) {
    return (
      <p className="notice">
        <Link to="/login">{t('history.sharedSignIn')}</Link>
      </p>
    );
  }
  const hrefOf = (choice: OwnLapChoice) =>
    choice && choice !== 'record'
      ? `/comparar?${new URLSearchParams({
          ...addressToQuery(choice.session),
          volta: choice.lap,
          ref: 'link',
          link: props.token,
          ...(props.sharedLap ? { rvolta: props.sharedLap } : {}),
        }).toString()}`
      : null;
  return (
    <section className="share-panel" aria-labelledby="compare-mine-title">
      <h2 id="compare-mine-title">{t('history.compareMine')}</h2>
      <div className="compare-pick">
        <OwnLapPicker
          track={props.view.track}
          sessionLabel={t('history.sharedYourSession')}
          lapLabel={t('history.sharedYourLap')}
        >
          {(choice, { empty }) => {
            if (empty) return <p className="muted">{t('history.compareNoSessions')}</p>;
            const href = hrefOf(choice);
            return href ? (
              <Link className="btn btn-primary" to={href}>
                {t('history.compareGo')}
              </Link>
            ) : (
              <button type="button" className="btn btn-primary" disabled>
                {t('history.compareGo')}
              </button>
            );
          }}
        </OwnLapPicker>
      </div>
    </section>
  );
}

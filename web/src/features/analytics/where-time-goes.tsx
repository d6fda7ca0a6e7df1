// "Where you lose time" on the analytics page: a chosen lap against another lap or the ideal lap, as
// cards for the biggest losses and a corner table; tapping a card or a corner zooms the map and charts to it.
import { memo } from 'react';
import { formatLapTime } from '#core/formats/lap-six.ts';
import type { TrackAnalysisResponse } from '#core/contracts/tracks.contract.ts';
import { errorMessage, useT } from '#web/i18n/messages.ts';
import type { Units } from '#core/units.ts';
import { decimal, gapClass } from '#web/lib/format.ts';
import { lossReason, lossTitle, topLosses } from '#web/lib/loss-cards.ts';
import { formatGap } from '#web/lib/format.ts';
import { lossesToIdeal, topIdealLosses, type Study } from './study-choice';
import { TrackIdentity } from './track-identity';
import { Loading } from '#web/components/ui/query-status.tsx';
import type { SessionAddress } from '#core/contracts/session-paths.ts';
import type { CoachingResponse } from '#core/contracts/tracks.contract.ts';
import { CornerTable } from '#web/components/corner-table.tsx';
import { CornerStudy, type CoachedCorner } from './coaching';
import { type CornerFocus, focusOf } from './corner-focus';
import { IDEAL, LapSelect } from './lap-select';

/**
 * About the height (px) the section takes on a phone, kept for it until it is drawn (`WhenNear`):
 * the heading, the ideal lap, the track, the pickers and the cards, then a row a corner.
 */
export function whereTimeGoesHeight(data: TrackAnalysisResponse | undefined): number {
  if (!data) return 40;
  // The corner study below: a second row a corner (its table), then a profile and a g-g plot, one
  // above the other on a phone.
  return 700 + 140 * data.corners.length + 620;
}

/**
 * "Onde você perde tempo": the studied lap against its reference (by default the best lap
 * against the ideal lap, study-choice.ts), the three pieces of the lap where the most time went
 * as cards in plain Portuguese, and a corner table; tapping a card or a corner zooms the map and
 * the charts to it.
 */
export const WhereTimeGoes = memo(function WhereTimeGoes(props: {
  data: TrackAnalysisResponse | undefined;
  study: Study;
  session: SessionAddress | null;
  pending: boolean;
  /** Another pair of laps is on its way: the current answer stays until it comes. */
  fetching?: boolean;
  error: unknown;
  onChoose: (choice: { lap?: number; reference?: number | 'ideal' }) => void;
  focus: CornerFocus | null;
  onFocus: (focus: CornerFocus | null) => void;
  units?: Units;
  /** The corner study of the lap studied (issue 62), and what a corner of it shows when tapped. */
  coaching?: CoachingResponse | undefined;
  onCoachCorner?: (corner: CoachedCorner) => void;
}) {
  const t = useT();
  const units = props.units ?? 'metric';
  const { data, study } = props;
  if (props.error) {
    return (
      <section className="where-time-goes" aria-labelledby="where-title">
        <h2 id="where-title">{t('tracks.whereTitle')}</h2>
        <p className="notice">{errorMessage(t, props.error)}</p>
      </section>
    );
  }
  if (!data) {
    return props.pending ? <Loading>{t('tracks.loading')}</Loading> : null;
  }
  const complete = data.laps.filter((l) => l.complete && l.kind === 'flying');
  const nameOf = (index: number | null | undefined) => {
    const lap = data.laps.find((l) => l.index === index);
    return lap ? `${lap.heat}${lap.number}` : '—';
  };
  const ideal = study.mode === 'ideal' && data.idealLapSeconds !== null ? lossesToIdeal(data, study.lap) : null;
  const comparison = ideal ? null : data.comparison;
  const studied = ideal ? study.lap : comparison?.lap;
  const studiedLap = data.laps.find((l) => l.index === studied);
  const cards = comparison ? topLosses(comparison.segments) : [];
  const idealCards = ideal ? topIdealLosses(ideal) : [];
  const zoom = (segment: string) => props.onFocus(props.focus?.segment === segment ? null : focusOf(data, segment));
  const busy = Boolean(props.fetching);
  let explain: string | null = null;
  if (ideal)
    explain = t(study.lap === data.bestLap ? 'tracks.idealExplainBest' : 'tracks.idealExplain', {
      lap: nameOf(study.lap),
    });
  else if (study.automatic && comparison && comparison.lap !== comparison.reference) {
    explain = t('tracks.recentExplain', { lap: nameOf(comparison.lap), best: nameOf(comparison.reference) });
  }

  return (
    <section className="where-time-goes" aria-labelledby="where-title" aria-busy={busy}>
      <h2 id="where-title">{t('tracks.whereTitle')}</h2>
      <dl className="summary">
        <div className="summary-item summary-ideal">
          <dt>
            {t('tracks.idealLap')} <small>({t('tracks.idealHint')})</small>
          </dt>
          <dd data-testid="ideal-lap">
            {data.idealLapSeconds !== null ? formatLapTime(data.idealLapSeconds * 1000) : t('tracks.idealNone')}
          </dd>
        </div>
      </dl>
      {data.idealLapSeconds !== null && (
        <details className="ideal-parts">
          <summary>{t('tracks.idealParts')}</summary>
          <ul>
            {data.idealLap.map((part) => (
              <li key={part.corner}>
                {t('tracks.idealPart', {
                  n: part.corner,
                  seconds: decimal(part.seconds ?? 0, 2),
                  lap: nameOf(part.lap),
                })}
              </li>
            ))}
          </ul>
        </details>
      )}
      {props.session && <TrackIdentity session={props.session} track={data.track} />}
      {studied !== undefined && (comparison || ideal) && (
        <div className="lap-choice">
          <LapSelect
            label={t('tracks.chooseLap')}
            laps={complete}
            best={data.bestLap}
            value={studied}
            busy={busy}
            onChange={(lap) => props.onChoose({ lap: lap as number, reference: ideal ? IDEAL : comparison!.reference })}
          />
          <LapSelect
            label={t('tracks.chooseReference')}
            laps={complete}
            best={data.bestLap}
            value={ideal ? IDEAL : comparison!.reference}
            offerIdeal={data.idealLapSeconds !== null}
            busy={busy}
            onChange={(reference) => props.onChoose({ lap: studied, reference })}
          />
          {explain && (
            <p className="study-explain" data-testid="study-explain">
              {explain}
            </p>
          )}
          <p className="muted" data-testid="total-delta">
            {ideal && studiedLap
              ? t('tracks.totalDelta', {
                  delta: formatGap((studiedLap.seconds ?? studiedLap.gpsSeconds) - data.idealLapSeconds!),
                })
              : comparison!.lap === comparison!.reference
                ? t('tracks.sameLap')
                : t('tracks.totalDelta', { delta: formatGap(comparison!.deltaSeconds) })}
          </p>
          {busy && <Loading>{t('tracks.loading')}</Loading>}
        </div>
      )}
      {ideal && (
        <ol className="loss-cards" data-testid="loss-cards">
          {idealCards.length === 0 && <li className="muted">{t('tracks.noLoss')}</li>}
          {idealCards.map((d) => (
            <li key={d.corner}>
              <button
                type="button"
                className="loss-card"
                aria-pressed={props.focus?.segment === `T${d.corner}`}
                onClick={() => zoom(`T${d.corner}`)}
                data-testid="loss-card"
              >
                <strong>{t('tracks.cardCorner', { n: d.corner, delta: formatGap(d.deltaSeconds, 2) })}</strong>
                <span>
                  {t('tracks.idealReason', {
                    lap: decimal(d.lapSeconds, 2),
                    ideal: decimal(d.idealSeconds, 2),
                    from: nameOf(d.fromLap),
                  })}
                </span>
              </button>
            </li>
          ))}
        </ol>
      )}
      {comparison && comparison.lap !== comparison.reference && (
        <ol className="loss-cards" data-testid="loss-cards">
          {cards.length === 0 && <li className="muted">{t('tracks.noLoss')}</li>}
          {cards.map((d) => (
            <li key={d.segment}>
              <button
                type="button"
                className="loss-card"
                aria-pressed={props.focus?.segment === d.segment}
                onClick={() => zoom(d.segment)}
                data-testid="loss-card"
              >
                <strong>{lossTitle(t, d)}</strong>
                <span>{lossReason(t, d, units)}</span>
              </button>
            </li>
          ))}
        </ol>
      )}
      {props.focus && (
        <p className="actions-row">
          <span>{t('tracks.zoomed', { n: props.focus.segment.slice(1) })}</span>
          <button type="button" className="btn btn-secondary btn-small" onClick={() => props.onFocus(null)}>
            {t('tracks.showAll')}
          </button>
        </p>
      )}
      {ideal && data.idealLap.length > 0 && (
        <div className="table-scroll" role="region" aria-label={t('tracks.idealTableTitle')} tabIndex={0}>
          <table className="data-table corner-table" data-testid="corner-table">
            <caption>
              {t('tracks.idealTableTitle')}
              <span className="muted caption-hint">{t('tracks.stretchHint')}</span>
            </caption>
            <thead>
              <tr>
                <th scope="col">{t('tracks.colStretch')}</th>
                <th scope="col">{t('tracks.colTime')}</th>
                <th scope="col">{t('tracks.colIdealTime')}</th>
                <th scope="col">{t('tracks.colDelta')}</th>
                <th scope="col">{t('tracks.colBestFrom')}</th>
              </tr>
            </thead>
            <tbody>
              {data.idealLap.map((part) => {
                // A section the GPS did not time cleanly on this lap reads '—'.
                const d = ideal.find((x) => x.corner === part.corner);
                const n = part.corner;
                return (
                  <tr key={n} className={props.focus?.segment === `T${n}` ? 'row-focused' : ''}>
                    <th scope="row">
                      <button
                        type="button"
                        className="link-button"
                        onClick={() => zoom(`T${n}`)}
                        aria-label={t('tracks.zoomTo', { n })}
                      >
                        {t('tracks.stretchOf', { n })}
                      </button>
                    </th>
                    <td>{d ? decimal(d.lapSeconds, 2) : '—'}</td>
                    <td>{part.seconds !== null ? decimal(part.seconds, 2) : '—'}</td>
                    <td className={d ? gapClass(d.deltaSeconds) : ''}>{d ? formatGap(d.deltaSeconds, 2) : '—'}</td>
                    <td>{nameOf(part.lap)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {props.coaching && props.onCoachCorner && (
        <CornerStudy
          data={props.coaching}
          units={units}
          focused={props.focus?.segment ?? null}
          range={props.focus ? [props.focus.fromM, props.focus.toM] : null}
          onCorner={props.onCoachCorner}
        />
      )}
      {comparison && data.corners.length > 0 && !props.coaching && (
        <CornerTable
          comparison={comparison}
          units={units}
          testId="corner-table"
          focused={props.focus?.segment ?? null}
          onZoom={zoom}
        />
      )}
    </section>
  );
});

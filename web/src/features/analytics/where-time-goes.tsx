// "Where you lose time" on the analytics page: a chosen lap against another lap or the ideal lap, as
// cards for the biggest losses and a corner table; tapping a card or a corner zooms the map and charts to it.
import { memo } from 'react';
import { formatLapTime } from '#core/formats/lap-six.ts';
import type { TrackAnalysisResponse } from '#core/contracts/tracks.contract.ts';
import { errorMessage, type Translate, useT } from '#web/i18n/messages.ts';
import type { Units } from '#core/units.ts';
import { decimal, lean, speedTable } from '#web/lib/format.ts';
import { formatDistance } from '#web/lib/units-format.ts';
import { lossReason, lossTitle, topLosses } from '#web/lib/loss-cards.ts';
import { formatGap } from '#web/lib/format.ts';
import { lossesToIdeal, topIdealLosses, type Study } from './study-choice';
import { TrackIdentity } from './track-identity';
import { Loading } from '#web/components/ui/query-status.tsx';
import type { SessionAddress } from '#core/contracts/session-paths.ts';
import type { CoachingResponse } from '#core/contracts/tracks.contract.ts';
import { CornerStudy, type CoachedCorner } from './coaching';

export interface CornerFocus {
  /** The segment shown (T3, R3). */
  segment: string;
  fromM: number;
  toM: number;
  lat: number;
  lon: number;
  radiusM: number;
}

/** Where a segment of the track is, for the map and the charts to zoom to. */
function focusOf(data: TrackAnalysisResponse, segmentId: string): CornerFocus | null {
  const segment = data.segments.find((s) => s.id === segmentId);
  if (!segment) return null;
  const corner = data.corners.find((c) => c.number === segment.corner);
  // A straight: between the apexes of the corners either side of it.
  const after = Number(segmentId.slice(1));
  const ends = corner
    ? [corner, corner]
    : [
        data.corners.find((c) => c.number === after),
        data.corners.find((c) => c.number === after + 1) ?? data.corners[0],
      ];
  const [a, b] = ends;
  if (!a || !b) return null;
  const span = segment.toM - segment.fromM;
  return {
    segment: segmentId,
    fromM: segment.fromM - 40,
    toM: segment.toM + 40,
    lat: (a.apex.lat + b.apex.lat) / 2,
    lon: (a.apex.lon + b.apex.lon) / 2,
    radiusM: Math.max(120, span / 2 + 60),
  };
}

const lapLabel = (t: Translate, l: TrackAnalysisResponse['laps'][number], best: number | null) =>
  `${t('tracks.lapOption', { heat: l.heat, number: l.number, time: l.seconds === null ? '—' : formatLapTime(l.seconds * 1000) })}${l.index === best ? ` ${t('tracks.bestMark')}` : ''}`;

/** The reference select's values for the ideal lap and the rider's record at the track (a lap's is its index). */
const IDEAL = 'ideal';
const RECORD = 'record';
type Reference = number | typeof IDEAL | typeof RECORD;

function LapSelect(props: {
  label: string;
  laps: TrackAnalysisResponse['laps'];
  best: number | null;
  value: Reference;
  offerIdeal?: boolean;
  offerRecord?: boolean;
  busy: boolean;
  onChange: (value: Reference) => void;
}) {
  const t = useT();
  return (
    <label>
      {props.label}
      <select
        value={props.value}
        aria-busy={props.busy}
        onChange={(e) => {
          const v = e.target.value;
          props.onChange(v === IDEAL || v === RECORD ? v : Number(v));
        }}
      >
        {props.offerIdeal && <option value={IDEAL}>{t('tracks.referenceIdeal')}</option>}
        {props.offerRecord && <option value={RECORD}>{t('tracks.referenceRecord')}</option>}
        {props.laps.map((l) => (
          <option key={l.index} value={l.index}>
            {lapLabel(t, l, props.best)}
          </option>
        ))}
      </select>
    </label>
  );
}

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

/** Where a corner of the study is, for the map, the charts and the video to go to: its approach and exit too. */
export function focusOfCorner(c: Pick<CoachedCorner, 'name' | 'startM' | 'endM' | 'apex'>): CornerFocus {
  return {
    segment: c.name,
    fromM: c.startM - 150,
    toM: c.endM + 80,
    lat: c.apex.lat,
    lon: c.apex.lon,
    radiusM: Math.max(150, (c.endM - c.startM) / 2 + 120),
  };
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
  onChoose: (choice: { lap?: number; reference?: Reference }) => void;
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
  // Against the record (another session's lap), the corner study below is the comparison.
  const record = study.mode === 'record';
  const comparison = ideal || record ? null : data.comparison;
  const studied = ideal || record ? study.lap : comparison?.lap;
  const studiedLap = data.laps.find((l) => l.index === studied);
  const cards = comparison ? topLosses(comparison.segments) : [];
  const idealCards = ideal ? topIdealLosses(ideal) : [];
  const deltaOf = (segment: string) => comparison?.segments.find((s) => s.segment === segment)?.deltaSeconds;
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
      {studied !== undefined && (comparison || ideal || record) && (
        <div className="lap-choice">
          <LapSelect
            label={t('tracks.chooseLap')}
            laps={complete}
            best={data.bestLap}
            value={studied}
            busy={busy}
            onChange={(lap) =>
              props.onChoose({ lap: lap as number, reference: ideal ? IDEAL : record ? RECORD : comparison!.reference })
            }
          />
          <LapSelect
            label={t('tracks.chooseReference')}
            laps={complete}
            best={data.bestLap}
            value={ideal ? IDEAL : record ? RECORD : comparison!.reference}
            offerIdeal={data.idealLapSeconds !== null}
            offerRecord
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
              : record
                ? props.coaching?.ref === 'record' &&
                  t('tracks.totalDelta', { delta: formatGap(props.coaching.deltaSeconds) })
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
                    <td className={d && d.deltaSeconds > 0.005 ? 'delta-lost' : 'delta-gained'}>
                      {d ? formatGap(d.deltaSeconds, 2) : '—'}
                    </td>
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
        <div className="table-scroll" role="region" aria-label={t('tracks.cornersTitle')} tabIndex={0}>
          <table className="data-table corner-table" data-testid="corner-table">
            <caption>{t('tracks.cornersTitle')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('tracks.colCorner')}</th>
                <th scope="col">{t('tracks.colTime')}</th>
                <th scope="col">{t('tracks.colDelta')}</th>
                <th scope="col">{t('tracks.colEntry')}</th>
                <th scope="col">{t('tracks.colApex')}</th>
                <th scope="col">{t('tracks.colExit')}</th>
                <th scope="col">{t('tracks.colLean')}</th>
                <th scope="col">{t('tracks.colBrake')}</th>
              </tr>
            </thead>
            <tbody>
              {comparison.lapCorners.map((c) => {
                const ref = comparison.referenceCorners.find((r) => r.corner === c.corner);
                const delta = deltaOf(`T${c.corner}`);
                return (
                  <tr key={c.corner} className={props.focus?.segment === `T${c.corner}` ? 'row-focused' : ''}>
                    <th scope="row">
                      <button
                        type="button"
                        className="link-button"
                        onClick={() => zoom(`T${c.corner}`)}
                        aria-label={t('tracks.zoomTo', { n: c.corner })}
                      >
                        T{c.corner}
                      </button>
                    </th>
                    <td>{decimal(c.seconds, 2)}</td>
                    <td className={delta !== undefined && delta > 0 ? 'delta-lost' : 'delta-gained'}>
                      {delta !== undefined ? formatGap(delta, 2) : '—'}
                    </td>
                    <td>
                      {speedTable(c.entryKmh, units)}{' '}
                      {ref && <small className="muted">({speedTable(ref.entryKmh, units)})</small>}
                    </td>
                    <td>
                      {speedTable(c.minKmh, units)}{' '}
                      {ref && <small className="muted">({speedTable(ref.minKmh, units)})</small>}
                    </td>
                    <td>
                      {speedTable(c.exitKmh, units)}{' '}
                      {ref && <small className="muted">({speedTable(ref.exitKmh, units)})</small>}
                    </td>
                    <td>{c.maxLeanDeg !== null ? lean(c.maxLeanDeg) : '—'}</td>
                    <td>
                      {c.brakeBeforeApexM !== null
                        ? t('preferences.brakeBefore', { distance: formatDistance(c.brakeBeforeApexM, units) })
                        : '—'}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
});

import { memo } from 'react';
import { formatLapTime } from '../../../../core/formats/lap-six';
import { formatGap } from '../../../../core/laps/lap-math';
import type { TrackAnalysisResponse } from '../../../../core/contracts/tracks.contract';
import { errorMessage, fill, t } from '../../i18n/messages';
import { decimalBR, lean, speedTable } from '../../lib/format';
import { lossReason, lossTitle, signedSeconds, topLosses } from './loss-cards';
import { TrackIdentity } from './track-identity';
import type { SessionAddress } from '../../../../core/contracts/session-paths';

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
export function focusOf(data: TrackAnalysisResponse, segmentId: string): CornerFocus | null {
  const segment = data.segments.find((s) => s.id === segmentId);
  if (!segment) return null;
  const corner = data.corners.find((c) => c.number === segment.corner);
  // A straight: between the apexes of the corners either side of it.
  const after = Number(segmentId.slice(1));
  const ends = corner ? [corner, corner] : [data.corners.find((c) => c.number === after), data.corners.find((c) => c.number === after + 1) ?? data.corners[0]];
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

const lapLabel = (l: TrackAnalysisResponse['laps'][number], best: number | null) =>
  `${fill(t.tracks.lapOption, { heat: l.heat, number: l.number, time: l.seconds === null ? '—' : formatLapTime(l.seconds * 1000) })}${l.index === best ? ` ${t.tracks.bestMark}` : ''}`;

function LapSelect(props: { label: string; laps: TrackAnalysisResponse['laps']; best: number | null; value: number; onChange: (index: number) => void }) {
  return (
    <label>
      {props.label}
      <select value={props.value} onChange={(e) => props.onChange(Number(e.target.value))}>
        {props.laps.map((l) => (
          <option key={l.index} value={l.index}>
            {lapLabel(l, props.best)}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * "Onde você perde tempo": the studied lap against its reference, the three pieces of the lap
 * where the most time went as cards in plain Portuguese, and a corner table; tapping a card or a
 * corner zooms the map and the charts to it.
 */
export const WhereTimeGoes = memo(function WhereTimeGoes(props: {
  data: TrackAnalysisResponse | undefined;
  session: SessionAddress | null;
  pending: boolean;
  error: unknown;
  onChoose: (choice: { lap?: number; reference?: number }) => void;
  focus: CornerFocus | null;
  onFocus: (focus: CornerFocus | null) => void;
}) {
  const tr = t.tracks;
  const { data } = props;
  if (props.error) {
    return (
      <section className="where-time-goes" aria-labelledby="where-title">
        <h2 id="where-title">{tr.whereTitle}</h2>
        <p className="notice">{errorMessage(props.error)}</p>
      </section>
    );
  }
  if (!data) {
    return props.pending ? (
      <p className="loading-inline" role="status">
        <span className="spinner" aria-hidden="true" /> {tr.loading}
      </p>
    ) : null;
  }
  const complete = data.laps.filter((l) => l.complete && l.kind === 'flying');
  const comparison = data.comparison;
  const cards = comparison ? topLosses(comparison.segments) : [];
  const deltaOf = (segment: string) => comparison?.segments.find((s) => s.segment === segment)?.deltaSeconds;
  const zoom = (segment: string) => props.onFocus(props.focus?.segment === segment ? null : focusOf(data, segment));

  return (
    <section className="where-time-goes" aria-labelledby="where-title">
      <h2 id="where-title">{tr.whereTitle}</h2>
      <dl className="summary">
        <div className="summary-item summary-ideal">
          <dt>
            {tr.idealLap} <small>({tr.idealHint})</small>
          </dt>
          <dd data-testid="ideal-lap">{data.idealLapSeconds !== null ? formatLapTime(data.idealLapSeconds * 1000) : tr.idealNone}</dd>
        </div>
      </dl>
      {data.idealLapSeconds !== null && (
        <details className="ideal-parts">
          <summary>{tr.idealParts}</summary>
          <ul>
            {data.idealLap.map((part) => {
              const lap = data.laps.find((l) => l.index === part.lap);
              return (
                <li key={part.corner}>
                  {fill(tr.idealPart, { n: part.corner, seconds: decimalBR(part.seconds ?? 0, 2), lap: lap ? `${lap.heat}${lap.number}` : '—' })}
                </li>
              );
            })}
          </ul>
        </details>
      )}
      {props.session && <TrackIdentity session={props.session} track={data.track} />}
      {comparison && (
        <div className="lap-choice">
          <LapSelect
            label={tr.chooseLap}
            laps={complete}
            best={data.bestLap}
            value={comparison.lap}
            onChange={(lap) => props.onChoose({ lap, reference: comparison.reference })}
          />
          <LapSelect
            label={tr.chooseReference}
            laps={complete}
            best={data.bestLap}
            value={comparison.reference}
            onChange={(reference) => props.onChoose({ lap: comparison.lap, reference })}
          />
          <p className="muted" data-testid="total-delta">
            {comparison.lap === comparison.reference ? tr.sameLap : fill(tr.totalDelta, { delta: signedSeconds(comparison.deltaSeconds) })}
          </p>
        </div>
      )}
      {comparison && comparison.lap !== comparison.reference && (
        <ol className="loss-cards" data-testid="loss-cards">
          {cards.length === 0 && <li className="muted">{tr.noLoss}</li>}
          {cards.map((d) => (
            <li key={d.segment}>
              <button
                type="button"
                className="loss-card"
                aria-pressed={props.focus?.segment === d.segment}
                onClick={() => zoom(d.segment)}
                data-testid="loss-card"
              >
                <strong>{lossTitle(d)}</strong>
                <span>{lossReason(d)}</span>
              </button>
            </li>
          ))}
        </ol>
      )}
      {props.focus && (
        <p className="actions-row">
          <span>{fill(tr.zoomed, { n: props.focus.segment.slice(1) })}</span>
          <button type="button" className="btn btn-secondary btn-small" onClick={() => props.onFocus(null)}>
            {tr.showAll}
          </button>
        </p>
      )}
      {comparison && data.corners.length > 0 && (
        <div className="table-scroll" role="region" aria-label={tr.cornersTitle} tabIndex={0}>
          <table className="data-table corner-table" data-testid="corner-table">
            <caption>{tr.cornersTitle}</caption>
            <thead>
              <tr>
                <th scope="col">{tr.colCorner}</th>
                <th scope="col">{tr.colTime}</th>
                <th scope="col">{tr.colDelta}</th>
                <th scope="col">{tr.colEntry}</th>
                <th scope="col">{tr.colApex}</th>
                <th scope="col">{tr.colExit}</th>
                <th scope="col">{tr.colLean}</th>
                <th scope="col">{tr.colBrake}</th>
              </tr>
            </thead>
            <tbody>
              {comparison.lapCorners.map((c) => {
                const ref = comparison.referenceCorners.find((r) => r.corner === c.corner);
                const delta = deltaOf(`T${c.corner}`);
                return (
                  <tr key={c.corner} className={props.focus?.segment === `T${c.corner}` ? 'row-focused' : ''}>
                    <th scope="row">
                      <button type="button" className="link-button" onClick={() => zoom(`T${c.corner}`)} aria-label={fill(tr.zoomTo, { n: c.corner })}>
                        T{c.corner}
                      </button>
                    </th>
                    <td>{decimalBR(c.seconds, 2)}</td>
                    <td className={delta !== undefined && delta > 0 ? 'delta-lost' : 'delta-gained'}>
                      {delta !== undefined ? formatGap(Math.round(delta * 1000)) : '—'}
                    </td>
                    <td>
                      {speedTable(c.entryKmh)} {ref && <small className="muted">({speedTable(ref.entryKmh)})</small>}
                    </td>
                    <td>
                      {speedTable(c.minKmh)} {ref && <small className="muted">({speedTable(ref.minKmh)})</small>}
                    </td>
                    <td>
                      {speedTable(c.exitKmh)} {ref && <small className="muted">({speedTable(ref.exitKmh)})</small>}
                    </td>
                    <td>{c.maxLeanDeg !== null ? lean(c.maxLeanDeg) : '—'}</td>
                    <td>{c.brakeBeforeApexM !== null ? fill(tr.brakeBefore, { m: Math.round(c.brakeBeforeApexM) }) : '—'}</td>
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

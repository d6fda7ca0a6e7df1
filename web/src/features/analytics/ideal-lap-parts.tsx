// The ideal lap in "Where you lose time": its time and where each of its stretches comes from, and
// the table of the lap studied against it stretch by stretch.
import type { TrackAnalysisResponse } from '#core/contracts/tracks.contract.ts';
import { formatLapTime } from '#core/formats/lap-six.ts';
import { useT } from '#web/i18n/messages.ts';
import { decimal, formatGap, gapClass } from '#web/lib/format.ts';
import { lapNameOf, type IdealLoss } from './study-choice';

/** The ideal lap's time (or why there is none), and its stretches, each from the lap that rode it best. */
export function IdealLapSummary({ data }: { data: TrackAnalysisResponse }) {
  const t = useT();
  return (
    <>
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
                  lap: lapNameOf(data.laps, part.lap),
                })}
              </li>
            ))}
          </ul>
        </details>
      )}
    </>
  );
}

/** The lap studied against the ideal lap, a row a stretch; a stretch zooms the map and the charts to it. */
export function IdealTable(props: {
  data: TrackAnalysisResponse;
  losses: IdealLoss[];
  focused: string | null;
  onZoom: (segment: string) => void;
}) {
  const t = useT();
  const { data } = props;
  return (
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
            const d = props.losses.find((x) => x.corner === part.corner);
            const n = part.corner;
            return (
              <tr key={n} className={props.focused === `T${n}` ? 'row-focused' : ''}>
                <th scope="row">
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => props.onZoom(`T${n}`)}
                    aria-label={t('tracks.zoomTo', { n })}
                  >
                    {t('tracks.stretchOf', { n })}
                  </button>
                </th>
                <td>{d ? decimal(d.lapSeconds, 2) : '—'}</td>
                <td>{part.seconds !== null ? decimal(part.seconds, 2) : '—'}</td>
                <td className={d ? gapClass(d.deltaSeconds) : ''}>{d ? formatGap(d.deltaSeconds, 2) : '—'}</td>
                <td>{lapNameOf(data.laps, part.lap)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

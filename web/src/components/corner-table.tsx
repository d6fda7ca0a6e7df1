// The corner table: one lap against its reference corner by corner, for the analytics page ("Where
// you lose time") and the comparison (/comparar and a shared link's). One table, one gap format.
import type { CompareResponse } from '#core/contracts/progress.contract.ts';
import type { Units } from '#core/units.ts';
import { useT } from '#web/i18n/messages.ts';
import { decimal, formatGap, gapClass, lean, speedTable } from '#web/lib/format.ts';
import { formatDistance } from '#web/lib/units-format.ts';

/** What the table reads of a lap comparison (the track analysis's and the comparison's have this shape). */
export type CornerComparison = Pick<CompareResponse['comparison'], 'lapCorners' | 'referenceCorners' | 'segments'>;

/**
 * A row a corner: its time, the gap to the reference, the speeds in, at the apex and out, the lean
 * and the braking point; the reference's figures in brackets. `brief` leaves out the entry speed
 * and the braking point, where the table sits beside charts. With `onZoom`, each corner is a button
 * that shows it on the map and the charts (`focused`: the one shown).
 */
export function CornerTable(props: {
  comparison: CornerComparison;
  units: Units;
  testId: string;
  brief?: boolean;
  focused?: string | null;
  onZoom?: (segment: string) => void;
}) {
  const t = useT();
  const { comparison, units, brief, onZoom } = props;
  if (!comparison.lapCorners.length) return null;
  const deltaOf = (n: number) => comparison.segments.find((s) => s.segment === `T${n}`)?.deltaSeconds;
  const withReference = (text: string, reference: string | undefined) => (
    <>
      {text} {reference !== undefined && <small className="muted">({reference})</small>}
    </>
  );
  return (
    <div className="table-scroll" role="region" aria-label={t('tracks.cornersTitle')} tabIndex={0}>
      <table className="data-table corner-table" data-testid={props.testId}>
        <caption>{t('tracks.cornersTitle')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('tracks.colCorner')}</th>
            <th scope="col">{t('tracks.colTime')}</th>
            <th scope="col">{t('tracks.colDelta')}</th>
            {!brief && <th scope="col">{t('tracks.colEntry')}</th>}
            <th scope="col">{t('tracks.colApex')}</th>
            <th scope="col">{t('tracks.colExit')}</th>
            <th scope="col">{t('tracks.colLean')}</th>
            {!brief && <th scope="col">{t('tracks.colBrake')}</th>}
          </tr>
        </thead>
        <tbody>
          {comparison.lapCorners.map((c) => {
            const ref = comparison.referenceCorners.find((r) => r.corner === c.corner);
            const delta = deltaOf(c.corner);
            const speed = (kmh: number, refKmh: number | undefined) =>
              withReference(speedTable(kmh, units), refKmh === undefined ? undefined : speedTable(refKmh, units));
            return (
              <tr key={c.corner} className={props.focused === `T${c.corner}` ? 'row-focused' : ''}>
                <th scope="row">
                  {onZoom ? (
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => onZoom(`T${c.corner}`)}
                      aria-label={t('tracks.zoomTo', { n: c.corner })}
                    >
                      T{c.corner}
                    </button>
                  ) : (
                    `T${c.corner}`
                  )}
                </th>
                <td>{withReference(decimal(c.seconds, 2), ref && decimal(ref.seconds, 2))}</td>
                <td className={delta === undefined ? '' : gapClass(delta)}>
                  {delta !== undefined ? formatGap(delta, 2) : '—'}
                </td>
                {!brief && <td>{speed(c.entryKmh, ref?.entryKmh)}</td>}
                <td>{speed(c.minKmh, ref?.minKmh)}</td>
                <td>{speed(c.exitKmh, ref?.exitKmh)}</td>
                <td>{c.maxLeanDeg !== null ? lean(c.maxLeanDeg) : '—'}</td>
                {!brief && (
                  <td>
                    {c.brakeBeforeApexM !== null
                      ? t('preferences.brakeBefore', { distance: formatDistance(c.brakeBeforeApexM, units) })
                      : '—'}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

// The cards of "Where you lose time": the three pieces of the lap studied where the most time went,
// against the ideal lap or another lap; a card zooms the map and the charts to its piece.
import type { TrackAnalysisResponse } from '#core/contracts/tracks.contract.ts';
import type { Units } from '#core/units.ts';
import { useT } from '#web/i18n/messages.ts';
import { decimal, formatGap } from '#web/lib/format.ts';
import { lossReason, lossTitle, topLosses } from '#web/lib/loss-cards.ts';
import { lapNameOf, topIdealLosses, type IdealLoss } from './study-choice';

interface Zoomable {
  focused: string | null;
  onZoom: (segment: string) => void;
}

/** Against the ideal lap: each stretch's time, the ideal's, and the lap that rode it best. */
export function IdealLossCards(props: Zoomable & { data: TrackAnalysisResponse; losses: IdealLoss[] }) {
  const t = useT();
  const cards = topIdealLosses(props.losses);
  return (
    <ol className="loss-cards" data-testid="loss-cards">
      {cards.length === 0 && <li className="muted">{t('tracks.noLoss')}</li>}
      {cards.map((d) => (
        <li key={d.corner}>
          <button
            type="button"
            className="loss-card"
            aria-pressed={props.focused === `T${d.corner}`}
            onClick={() => props.onZoom(`T${d.corner}`)}
            data-testid="loss-card"
          >
            <strong>{t('tracks.cardCorner', { n: d.corner, delta: formatGap(d.deltaSeconds, 2) })}</strong>
            <span>
              {t('tracks.idealReason', {
                lap: decimal(d.lapSeconds, 2),
                ideal: decimal(d.idealSeconds, 2),
                from: lapNameOf(props.data.laps, d.fromLap),
              })}
            </span>
          </button>
        </li>
      ))}
    </ol>
  );
}

/** Against another lap: what was lost in each piece, and why (braking, apex, exit speed). */
export function LapLossCards(
  props: Zoomable & { comparison: NonNullable<TrackAnalysisResponse['comparison']>; units: Units },
) {
  const t = useT();
  const { units } = props;
  const cards = topLosses(props.comparison.segments);
  return (
    <ol className="loss-cards" data-testid="loss-cards">
      {cards.length === 0 && <li className="muted">{t('tracks.noLoss')}</li>}
      {cards.map((d) => (
        <li key={d.segment}>
          <button
            type="button"
            className="loss-card"
            aria-pressed={props.focused === d.segment}
            onClick={() => props.onZoom(d.segment)}
            data-testid="loss-card"
          >
            <strong>{lossTitle(t, d)}</strong>
            <span>{lossReason(t, d, units)}</span>
          </button>
        </li>
      ))}
    </ol>
  );
}

import { Link } from 'react-router';
import { addressToQuery, type SessionAddress } from '#core/contracts/session-paths.ts';
import { useT } from '../i18n/messages';

/** The address comparing a session's lap with the rider's record ('Comparar', ref=recorde). */
export function compareWithRecordHref(session: SessionAddress, lap: { heat: string; lapCount: number }): string {
  const query = new URLSearchParams({
    ...addressToQuery(session),
    volta: `${lap.heat}${lap.lapCount}`,
    ref: 'recorde',
  });
  return `/comparar?${query.toString()}`;
}

/**
 * "Comparar com meu recorde" under a lap's time: a line of its own (a space before it, so the
 * time and the link never read as one word), named with its lap for a screen reader's list of links.
 */
export function CompareLink(props: { to: string; lap: string }) {
  const t = useT();
  return (
    <>
      {' '}
      <Link className="compare-link" to={props.to}>
        {t('history.compareRecord')}{' '}
        <span className="visually-hidden">{t('history.compareRecordWhich', { lap: props.lap })}</span>
      </Link>
    </>
  );
}

/**
 * The room of "Comparar com meu recorde" while the rider's record is asked for (nearly every rider
 * has one at a track they rode): the rows keep their height when the links come, so nothing moves.
 */
export function CompareLinkRoom() {
  const t = useT();
  return (
    <span className="compare-link compare-link-room" aria-hidden="true">
      {t('history.compareRecord')}
    </span>
  );
}

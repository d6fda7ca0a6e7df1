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

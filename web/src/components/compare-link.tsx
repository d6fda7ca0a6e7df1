import { Link } from 'react-router';
import { useT } from '../i18n/messages';

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

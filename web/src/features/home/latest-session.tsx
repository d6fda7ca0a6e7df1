import { addressToQuery } from '#core/contracts/session-paths.ts';
import { Link } from 'react-router';
import { formatDdmmyyyy } from '#core/formats/dates.ts';
import { useT } from '#web/i18n/messages.ts';
import { useLatestSession } from '#web/lib/sessions-api.ts';
import { deviceName } from '#web/lib/device-name.ts';

/** Home: the latest session (live: refreshed when a device uploads), with links to laps, analytics and the track drawing. */
export function LatestSession() {
  const t = useT();
  const latest = useLatestSession();
  if (latest.isPending) return null;
  const s = latest.data;
  const query = s ? `?${new URLSearchParams(addressToQuery(s)).toString()}` : '';
  return (
    <section className="panel latest" aria-labelledby="latest-title" data-testid="latest-session">
      <h2 id="latest-title">{t('homeLatest.latestTitle')}</h2>
      {s ? (
        <p>
          <strong>{s.track}</strong> — {formatDdmmyyyy(s.date)} · {deviceName(t, s.device)}{' '}
          {s.demo && <span className="muted">{t('homeLatest.latestDemo')}</span>}
        </p>
      ) : (
        <p>{t('homeLatest.latestNone')}</p>
      )}
      <p className="actions-row">
        <Link className="btn btn-secondary btn-small" to={`/laps${query}`}>
          {t('homeLatest.seeLaps')}
        </Link>
        <Link className="btn btn-secondary btn-small" to={`/analytics${query}`}>
          {t('homeLatest.analyze')}
        </Link>
        <Link className="btn btn-secondary btn-small" to="/make">
          {t('make.title')}
        </Link>
      </p>
    </section>
  );
}

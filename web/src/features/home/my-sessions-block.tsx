// Home's "My sessions" block: the rider's three latest sessions with their best laps, their record at
// each track (linked to its progress), and a link to all their sessions.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { addressToQuery } from '#core/contracts/session-paths.ts';
import { mySessionsResponseSchema } from '#core/contracts/sessions.contract.ts';
import { formatDdmmyyyy } from '#core/formats/dates.ts';
import { formatLapTime } from '#core/formats/lap-six.ts';
import { ErrorAlert } from '#web/components/ui/query-status.tsx';
import { useT } from '#web/i18n/messages.ts';
import { newestSessionsQuery, useRecords } from '#web/lib/history-api.ts';

const SHOWN = 3;

/** Home's first block: the rider's latest sessions and their records per track (green), with the way to all of them. */
export function MySessionsBlock() {
  const t = useT();
  const latest = useQuery(newestSessionsQuery(SHOWN, mySessionsResponseSchema));
  const records = useRecords();
  if (latest.isPending) return null;
  const sessions = latest.data?.sessions ?? [];
  const isRecord = (s: { device: string; track: string; date: string }) =>
    Boolean(records.data?.records.some((r) => r.device === s.device && r.track === s.track && r.date === s.date));
  return (
    <section className="panel latest" aria-labelledby="my-sessions-title" data-testid="home-my-sessions">
      <h2 id="my-sessions-title">{t('history.homeTitle')}</h2>
      {/* A failed read is said as such, never as "no sessions yet". */}
      {latest.isError ? (
        <ErrorAlert error={latest.error} />
      ) : sessions.length === 0 ? (
        <p>{t('history.homeEmpty')}</p>
      ) : (
        <ul className="my-sessions home-list">
          {sessions.map((s) => (
            <li key={`${s.device}/${s.track}/${s.date}`}>
              <Link to={`/laps?${new URLSearchParams(addressToQuery(s)).toString()}`}>
                {t('history.sessionLabel', { track: s.track, date: formatDdmmyyyy(s.date) })}
              </Link>
              {' · '}
              <span className={isRecord(s) ? 'time-pb' : undefined}>
                {s.bestLapMs === null ? '—' : formatLapTime(s.bestLapMs)}
              </span>
              {isRecord(s) && <span className="badge badge-pb">◆ {t('history.personalBestShort')}</span>}
            </li>
          ))}
        </ul>
      )}
      {(records.data?.records.length ?? 0) > 0 && (
        <>
          <h3>{t('history.homeRecords')}</h3>
          <ul className="my-sessions home-list">
            {records.data!.records.map((r) => (
              <li key={r.track}>
                <Link to={`/progresso?${new URLSearchParams({ pista: r.track }).toString()}`}>
                  <span className="time-pb">
                    {t('history.recordAt', {
                      track: r.track,
                      time: formatLapTime(r.lapTimeMs),
                      date: formatDdmmyyyy(r.date),
                    })}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
      <p className="actions-row">
        {sessions.length > 0 && (
          <Link className="btn btn-secondary btn-small" to="/sessoes">
            {t('history.seeAll')}
          </Link>
        )}
        <Link className="btn btn-primary btn-small" to="/importar" data-testid="home-import">
          {t('history.importLink')}
        </Link>
      </p>
    </section>
  );
}

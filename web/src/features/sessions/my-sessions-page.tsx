// "My sessions" (/sessoes): every session of the rider, newest first, fetched a page at a time and
// filtered by track, each with its best and ideal lap, consistency, and links to its laps and analysis.
import { useState } from 'react';
import { Link } from 'react-router';
import { mySessionsResponseSchema } from '#core/contracts/sessions.contract.ts';
import { addressToQuery } from '#core/contracts/session-paths.ts';
import { formatDdmmyyyy } from '#core/formats/dates.ts';
import { formatLapTime } from '#core/formats/lap-six.ts';
import { Page } from '#web/components/ui/page.tsx';
import { useT } from '#web/i18n/messages.ts';
import { decimal } from '#web/lib/format.ts';
import { useRecords, useSessionPages } from '#web/lib/history-api.ts';
import { ErrorAlert, Loading } from '#web/components/ui/query-status.tsx';
import { SelectField } from '#web/components/ui/select-field.tsx';

const PAGE = 20;

/**
 * 'Minhas sessões': every session of the rider (devices and imports), newest first, a page at a
 * time from the server, filtered by track; each opens its laps or analysis.
 */
export function MySessionsPage() {
  const t = useT();
  const [track, setTrack] = useState('');
  const list = useSessionPages(track, PAGE, mySessionsResponseSchema);
  const pages = list.data?.pages ?? [];
  const sessions = pages.flatMap((p) => p.sessions);
  // One circuit is one track, whatever each session calls it: filtered by any of its names.
  const circuits = pages[0]?.circuits ?? [];
  const records = useRecords();
  const isRecord = (s: { device: string; track: string; date: string }) =>
    Boolean(records.data?.records.some((r) => r.device === s.device && r.track === s.track && r.date === s.date));
  return (
    <Page
      title={t('history.title')}
      menu={[
        { to: '/user', label: t('menu.home') },
        { to: '/progresso', label: t('menu.evolucao') },
        { to: '/comparar', label: t('menu.comparar') },
        { to: '/links', label: t('menu.links') },
        { to: '/importar', label: t('menu.importar') },
      ]}
    >
      {(circuits.length > 1 || track) && (
        <SelectField
          className="my-sessions-filter"
          id="my-track"
          label={t('history.filter')}
          value={track}
          onChange={setTrack}
          options={[
            { value: '', label: t('history.allTracks') },
            ...circuits.map((c) => ({ value: c.tracks[0]!, label: c.name })),
          ]}
        />
      )}
      {list.isPending && <Loading>{t('history.loading')}</Loading>}
      <ErrorAlert error={list.error} />
      {list.isSuccess && sessions.length === 0 && (
        <p className="empty-state">
          {t('history.empty')} <Link to="/importar">{t('history.importLink')}</Link>
        </p>
      )}
      {sessions.length > 0 && <p className="muted">{t('history.consistencyHint')}</p>}
      {sessions.length > 0 && (
        <ul className="my-sessions" aria-label={t('history.title')}>
          {sessions.map((s) => {
            const query = new URLSearchParams(addressToQuery(s)).toString();
            return (
              <li key={`${s.device}/${s.track}/${s.date}`} className="panel my-session" data-testid="my-session">
                <h2 className="my-session-title">
                  {t('history.sessionLabel', { track: s.track, date: formatDdmmyyyy(s.date) })}
                  {s.imported && <span className="badge">{t('history.imported')}</span>}
                </h2>
                <dl className="my-session-figures">
                  <div>
                    <dt>{t('history.colBest')}</dt>
                    <dd className={isRecord(s) ? 'time-pb' : undefined}>
                      {s.bestLapMs === null ? '—' : formatLapTime(s.bestLapMs)}
                      {isRecord(s) && (
                        <span className="badge badge-pb" data-testid="personal-best">
                          ◆ {t('history.personalBest')}
                        </span>
                      )}
                    </dd>
                  </div>
                  <div>
                    <dt>{t('history.colIdeal')}</dt>
                    <dd>{s.idealLapMs === null ? '—' : formatLapTime(s.idealLapMs)}</dd>
                  </div>
                  <div>
                    <dt>
                      <abbr title={t('history.consistencyHint')}>{t('history.colConsistency')}</abbr>
                    </dt>
                    <dd>
                      {s.consistencyMs === null
                        ? '—'
                        : t('history.consistencyValue', { s: decimal(s.consistencyMs / 1000, 3) })}
                    </dd>
                  </div>
                  <div>
                    <dt>{t('history.colLaps')}</dt>
                    <dd>{s.laps}</dd>
                  </div>
                  <div>
                    <dt>{t('history.colHeats')}</dt>
                    <dd>{s.heats}</dd>
                  </div>
                </dl>
                <p className="import-links">
                  <Link className="btn" to={`/laps?${query}`}>
                    {t('history.openLaps')}
                  </Link>
                  <Link className="btn" to={`/analytics?${query}`}>
                    {t('history.openAnalytics')}
                  </Link>
                  <Link
                    className="btn btn-secondary"
                    to={`/progresso?${new URLSearchParams({ pista: s.track }).toString()}`}
                  >
                    {t('history.progressLink', { track: s.track })}
                  </Link>
                </p>
              </li>
            );
          })}
        </ul>
      )}
      {list.hasNextPage && (
        <button
          type="button"
          className="btn btn-secondary"
          disabled={list.isFetchingNextPage}
          onClick={() => void list.fetchNextPage()}
        >
          {t('history.more')}
        </button>
      )}
    </Page>
  );
}

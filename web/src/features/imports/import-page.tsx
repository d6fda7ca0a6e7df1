// The import page (/importar): riders drop or pick files from other loggers, sent one at a time (lap.six
// files last, so their laps join the trace sent before them), and see what each became, or delete it.
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type DragEvent } from 'react';
import { Link } from 'react-router';
import { MAX_IMPORT_BYTES, type ImportAnswer } from '#core/contracts/imports.contract.ts';
import { addressToQuery, type SessionAddress } from '#core/contracts/session-paths.ts';
import { formatDdmmyyyy } from '#core/formats/dates.ts';
import { formatLapTime } from '#core/formats/lap-six.ts';
import { Page } from '#web/components/ui/page.tsx';
import { useOnline } from '#web/lib/offline.ts';
import { importWarningText } from '#core/i18n/import-warnings.ts';
import { errorMessage, useT } from '#web/i18n/messages.ts';
import { queryKeys } from '#web/lib/query-keys.ts';
import { useDeleteImportedSession } from '#web/lib/sessions-api.ts';
import { ImportFailure, uploadImport, useImportStorage } from './imports.api';
import { ErrorAlert, Loading } from '#web/components/ui/query-status.tsx';

const MAX_MB = MAX_IMPORT_BYTES / 1024 / 1024;
/** MB to a tenth, rounded up (as the server's quota refusal words it). */
const mb = (bytes: number) => Math.ceil((bytes / 1024 / 1024) * 10) / 10;

type Item = {
  key: string;
  name: string;
  progress: number;
  status: 'waiting' | 'sending' | 'processing' | 'done' | 'again' | 'failed' | 'deleted';
  answer?: ImportAnswer;
  error?: string;
};

const query = (s: SessionAddress) => new URLSearchParams(addressToQuery(s)).toString();

/**
 * 'Importar sessões': drop or pick files from other loggers; each is sent in turn with its
 * progress, then shows what Voltas found in it (track, day, laps, best lap, warnings) with links
 * to its laps and analysis. Works with the phone's file picker.
 */
export function ImportPage() {
  const t = useT();
  const [items, setItems] = useState<Item[]>([]);
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const queryClient = useQueryClient();
  const storage = useImportStorage();
  const update = (key: string, change: Partial<Item>) =>
    setItems((list) => list.map((it) => (it.key === key ? { ...it, ...change } : it)));

  const add = (files: FileList | null) => {
    if (!files?.length) return;
    const fresh = [...files].map((file, k) => ({
      file,
      item: { key: `${Date.now()}-${k}-${file.name}`, name: file.name, progress: 0, status: 'waiting' as const },
    }));
    // A gps.six before its lap.six: the laps attach to the trace imported just before them.
    fresh.sort((a, b) => Number(a.file.name.endsWith('lap.six')) - Number(b.file.name.endsWith('lap.six')));
    setItems((list) => [...fresh.map((f) => f.item), ...list]);
    for (const { file, item } of fresh) {
      queue.current = queue.current.then(async () => {
        if (!navigator.onLine) return update(item.key, { status: 'failed', error: t('imports.offline') });
        update(item.key, { status: 'sending' });
        try {
          const { created, answer } = await uploadImport(file, (share) =>
            update(item.key, { progress: share, status: share >= 1 ? 'processing' : 'sending' }),
          );
          update(item.key, { status: created ? 'done' : 'again', answer, progress: 1 });
          void queryClient.invalidateQueries({ queryKey: queryKeys.me });
          void queryClient.invalidateQueries({ queryKey: queryKeys.tracks.all });
          void queryClient.invalidateQueries({ queryKey: queryKeys.dates.all });
          void queryClient.invalidateQueries({ queryKey: queryKeys.importStorage });
        } catch (err) {
          const message =
            err instanceof ImportFailure ? (err.mensagem ?? errorMessage(t, err.error)) : errorMessage(t, err);
          update(item.key, { status: 'failed', error: message });
        }
      });
    }
  };

  const online = useOnline();
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    add(e.dataTransfer.files);
  };

  return (
    <Page
      title={t('imports.title')}
      menu={[
        { to: '/user', label: t('menu.home') },
        { to: '/laps', label: t('menu.laps') },
      ]}
    >
      <p>{t('imports.intro')}</p>
      {!online && (
        <p role="status" className="notice notice-warning">
          {t('offline.importOffline')}
        </p>
      )}
      <div
        className={`drop-zone${over ? ' drop-zone-over' : ''}`}
        data-testid="drop-zone"
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <p className="drop-title">{t('imports.drop')}</p>
        <p className="muted">{t('imports.or')}</p>
        <button type="button" className="btn btn-primary" onClick={() => input.current?.click()}>
          {t('imports.pick')}
        </button>
        <input
          ref={input}
          type="file"
          multiple
          className="visually-hidden"
          aria-label={t('imports.pick')}
          data-testid="import-input"
          onChange={(e) => {
            add(e.target.files);
            e.target.value = '';
          }}
        />
        <p className="muted small">
          {t('imports.formats')} {t('imports.limit', { mb: MAX_MB })}
        </p>
        {storage.data && (
          <p className="muted small" data-testid="import-storage">
            {t('imports.storage', { usedMb: mb(storage.data.usedBytes), limitMb: mb(storage.data.limitBytes) })}
          </p>
        )}
      </div>
      {items.length === 0 ? (
        <p className="empty-state">{t('imports.empty')}</p>
      ) : (
        <ul className="import-list" aria-live="polite">
          {items.map((it) => (
            <ImportItem
              key={it.key}
              item={it}
              onDeleted={() => {
                update(it.key, { status: 'deleted' });
                void queryClient.invalidateQueries({ queryKey: queryKeys.importStorage });
              }}
            />
          ))}
        </ul>
      )}
    </Page>
  );
}

function ImportItem(props: { item: Item; onDeleted: () => void }) {
  const t = useT();
  const { item } = props;
  const remove = useDeleteImportedSession(props.onDeleted);
  const a = item.answer;
  return (
    <li className="panel import-item" data-testid="import-item" data-status={item.status}>
      <h2 className="import-name">{item.name}</h2>
      {(item.status === 'sending' || item.status === 'waiting') && (
        <p>
          <progress
            max={1}
            value={item.progress}
            aria-label={t('imports.sending', { pct: Math.round(item.progress * 100) })}
          />{' '}
          {t('imports.sending', { pct: Math.round(item.progress * 100) })}
        </p>
      )}
      {item.status === 'processing' && <Loading>{t('imports.processing')}</Loading>}
      {item.status === 'failed' && (
        <p role="alert" className="alert alert-error">
          {t('imports.failed')}: {item.error}
        </p>
      )}
      {item.status === 'deleted' && <p role="status">{t('imports.deleted')}</p>}
      {a && item.status !== 'deleted' && (
        <>
          <p className="import-found">
            <strong>{item.status === 'again' ? t('imports.again') : t('imports.done')}:</strong>{' '}
            {t('imports.found', { track: a.track.name, date: formatDdmmyyyy(a.session.date) })}
          </p>
          <p>{a.laps.length ? t('imports.lapsCount', { count: a.laps.length }) : t('imports.noLaps')}</p>
          {a.bestLapSeconds !== null && (
            <p className="import-best">{t('imports.bestLap', { time: formatLapTime(a.bestLapSeconds * 1000) })}</p>
          )}
          {a.loggerLaps.length > 0 && (
            <p>
              {t('imports.loggerLaps', {
                count: a.loggerLaps.length,
                time: formatLapTime(Math.min(...a.loggerLaps) * 1000),
              })}
            </p>
          )}
          {a.warnings.length > 0 && (
            <ul className="notice notice-warning import-warnings">
              {a.warnings.map((w, k) => (
                <li key={k}>{importWarningText(t, w)}</li>
              ))}
            </ul>
          )}
          <p className="import-links">
            <Link className="btn" to={`/laps?${query(a.session)}`}>
              {t('imports.openLaps')}
            </Link>
            <Link className="btn" to={`/analytics?${query(a.session)}`}>
              {t('imports.openAnalytics')}
            </Link>
            <button
              type="button"
              className="btn btn-secondary"
              disabled={remove.isPending}
              onClick={() => {
                if (
                  window.confirm(
                    t('imports.confirmDelete', { track: a.session.track, date: formatDdmmyyyy(a.session.date) }),
                  )
                )
                  remove.mutate(a.session);
              }}
            >
              {t('imports.deleteSession')}
            </button>
          </p>
          <ErrorAlert error={remove.error} />
        </>
      )}
    </li>
  );
}

// The laps page (/laps): choose a device, track and day, then see the session's summary, its file's
// warnings and the lap table, with links to analyse or share it (and to delete it, for an import).
import { Link, useSearchParams } from 'react-router';
import { formatDdmmyyyy } from '#core/formats/dates.ts';
import { formatLapTime } from '#core/formats/lap-six.ts';
import { Page } from '#web/components/ui/page.tsx';
import { isMessageId, type Translate, useT } from '#web/i18n/messages.ts';
import { ErrorAlert, Loading } from '#web/components/ui/query-status.tsx';
import { SummaryItem } from '#web/components/ui/summary-item.tsx';
import {
  addressFromQuery,
  addressToQuery,
  isImportCollection,
  type SessionAddress,
} from '#core/contracts/session-paths.ts';
import { SessionSelector, selectableDevices } from '#web/components/session-selector.tsx';
import { useMe } from '#web/lib/session.ts';
import { useUnits } from '#web/lib/preferences.ts';
import { useDeleteImportedSession, useLaps, useTrackLapTimes } from '#web/lib/sessions-api.ts';
import { useDeferredValue, useMemo } from 'react';
import { LapsTable, type GpsLapTimes } from './laps-table';
import { ShareButton } from '#web/components/share-button.tsx';
import { compareWithRecordHref } from '#web/components/compare-link.tsx';
import { useRecords } from '#web/lib/history-api.ts';
import { consistencyMs } from '#core/laps/lap-math.ts';
import { decimal } from '#web/lib/format.ts';

/**
 * The spec's lap viewer. The loaded selection lives in the address (?hw=&pista=&data=) so reload
 * and sharing work; the dropdowns follow the spec: choosing a hardware loads its tracks and picks
 * the first, choosing a track loads its dates (ascending) and picks the first.
 */
export function LapsPage() {
  const t = useT();
  const me = useMe().data!;
  const units = useUnits();
  const [params, setParams] = useSearchParams();
  const loaded = addressFromQuery(params);
  const laps = useLaps(loaded);
  // The ideal lap needs the GPS trace: asked once the laps are in (a session without gps.six answers 404: '—').
  const track = useTrackLapTimes(laps.data ? loaded : null);
  const ideal = track.data?.idealLapSeconds;
  // The rider's records mark a shown session's laps: not asked for before one is.
  const records = useRecords(loaded !== null);
  const record = loaded ? records.data?.records.find((r) => r.tracks.includes(loaded.track)) : undefined;
  const ownRecordHere =
    record && loaded && record.device === loaded.device && record.date === loaded.date ? record : undefined;
  // The table (memoized) renders again only when what it shows changes, and then in slices
  // (deferred values): the GPS times and the rider's record arrive after it has painted.
  const trackLaps = useDeferredValue(track.data?.laps);
  const gpsTimes: GpsLapTimes = useMemo(
    () =>
      new Map(
        (trackLaps ?? []).flatMap((l) =>
          l.timeSource === 'gps'
            ? []
            : [[`${l.heat}${l.number}`, { seconds: l.gpsSeconds, differs: l.differs, source: l.timeSource }] as const],
        ),
      ),
    [trackLaps],
  );
  const pbHeat = useDeferredValue(ownRecordHere?.heat);
  const pbLap = useDeferredValue(ownRecordHere?.lapCount);
  const personalBest = useMemo(
    () => (pbHeat !== undefined && pbLap !== undefined ? { heat: pbHeat, lapCount: pbLap } : undefined),
    [pbHeat, pbLap],
  );
  const hasRecord = useDeferredValue(Boolean(record));
  // Deferred with them: the table says it is complete in the render that completes it.
  const busy = useDeferredValue(records.isPending || track.isFetching);
  const lapsData = laps.data;
  const compareHref = useMemo(
    () =>
      hasRecord && lapsData
        ? (row: { heat: string; lapCount: number }) => compareWithRecordHref(lapsData, row)
        : undefined,
    [hasRecord, lapsData],
  );

  return (
    <Page
      title={t('laps.title')}
      menu={[
        { to: '/enroll', label: t('menu.meusDadosTitle') },
        { to: '/user', label: t('menu.home') },
      ]}
    >
      <SessionSelector
        key={selectableDevices(me).join()}
        devices={selectableDevices(me)}
        initial={loaded ?? {}}
        loaded={loaded}
        onLoad={(s) => setParams(addressToQuery(s))}
      />
      {!loaded && <p className="muted prompt">{t('laps.selectPrompt')}</p>}
      {laps.isFetching && !laps.data && <Loading>{t('laps.carregando')}</Loading>}
      <ErrorAlert error={laps.error} />
      {laps.data && (
        <section aria-label={`${laps.data.track} ${formatDdmmyyyy(laps.data.date)}`}>
          <dl className="summary">
            <SummaryItem kind="best" label={t('laps.bestLap')}>
              {laps.data.bestLapMs !== null ? formatLapTime(laps.data.bestLapMs) : '—'}
            </SummaryItem>
            {/* One headline for the best possible lap (the ideal); the sectors' sum explained under it. */}
            <SummaryItem
              kind="ideal"
              label={t('tracks.idealLap')}
              hint={t('tracks.idealHint')}
              data-testid="ideal-lap"
              aria-busy={track.isFetching}
              note={
                laps.data.theoreticalBestMs !== null
                  ? t('laps.theoreticalNote', { time: formatLapTime(laps.data.theoreticalBestMs) })
                  : undefined
              }
            >
              {ideal != null ? formatLapTime(ideal * 1000) : track.isFetching ? '…' : '—'}
            </SummaryItem>
            <SummaryItem label={t('laps.lapCount')}>{laps.data.laps.length}</SummaryItem>
            <SummaryItem
              label={t('history.colConsistency')}
              hint={t('history.consistencyHint')}
              data-testid="consistency"
            >
              {consistencyText(t, laps.data.laps)}
            </SummaryItem>
          </dl>
          <div className="actions-row">
            <Link
              className="btn btn-secondary"
              to={`/analytics?${new URLSearchParams(addressToQuery(laps.data)).toString()}`}
            >
              {t('laps.analyze')}
            </Link>
            {isImportCollection(laps.data.device) && (
              <DeleteImported session={laps.data} onDeleted={() => setParams({})} />
            )}
            {laps.data.device !== me.demoDevice && (
              <ShareButton
                session={laps.data}
                laps={(track.data?.laps ?? []).filter((l) => l.complete).map((l) => `${l.heat}${l.number}`)}
              />
            )}
          </div>
          {laps.data.warnings.length > 0 && (
            <details className="notice notice-warning">
              <summary>{t('laps.warningsTitle', { count: laps.data.warnings.length })}</summary>
              <ul>
                {laps.data.warnings.map((w) => (
                  <li key={`${w.line}-${w.field}`}>
                    {t('laps.warningLine', {
                      line: w.line,
                      field: w.field,
                      reason: isMessageId(`problemReasons.${w.reason}`)
                        ? t(`problemReasons.${w.reason}` as 'problemReasons.time')
                        : w.reason,
                    })}
                  </li>
                ))}
              </ul>
            </details>
          )}
          {laps.data.laps.length === 0 ? (
            <p className="empty-state">{t('laps.noLaps')}</p>
          ) : (
            <LapsTable
              data={laps.data}
              gps={gpsTimes}
              personalBest={personalBest}
              compareHref={compareHref}
              units={units}
              busy={busy}
            />
          )}
        </section>
      )}
    </Page>
  );
}

/** The session's consistency (core/laps/lap-math), as '± 0,412 s'; '—' under three flying laps. */
function consistencyText(t: Translate, laps: readonly { kind: string; lapTimeMs: number }[]): string {
  const ms = consistencyMs(laps.filter((l) => l.kind === 'flying' && l.lapTimeMs > 0).map((l) => l.lapTimeMs));
  return ms === null ? '—' : t('history.consistencyValue', { s: decimal(ms / 1000, 3) });
}

/** An imported session's delete button (asks first); a device session has none. */
function DeleteImported(props: { session: SessionAddress; onDeleted: () => void }) {
  const t = useT();
  const remove = useDeleteImportedSession(props.onDeleted);
  const { session } = props;
  return (
    <>
      <button
        type="button"
        className="btn btn-secondary"
        disabled={remove.isPending}
        onClick={() => {
          if (window.confirm(t('imports.confirmDelete', { track: session.track, date: formatDdmmyyyy(session.date) })))
            remove.mutate(session);
        }}
      >
        {t('imports.deleteSession')}
      </button>
      <ErrorAlert error={remove.error} />
    </>
  );
}

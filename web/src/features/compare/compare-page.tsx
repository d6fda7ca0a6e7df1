// Comparing two laps of one track along its line: the rider's lap against a record, another lap or a friend's.
import { useCallback, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { CompareResponse, PersonalBest } from '#core/contracts/progress.contract.ts';
import { addressFromQuery, addressToQuery, type SessionAddress } from '#core/contracts/session-paths.ts';
import { formatLapTime } from '#core/formats/lap-six.ts';
import { formatGap } from '#web/lib/format.ts';
import { Page } from '#web/components/ui/page.tsx';
import { useT } from '#web/i18n/messages.ts';
import { useUnits } from '#web/lib/preferences.ts';
import { useCompare, useMostRecentSession, useRecords, type CompareRequest } from '#web/lib/history-api.ts';
import { useTrackLapTimes } from '#web/lib/sessions-api.ts';
import type { LapVideosSlot } from '#web/lib/video-slot.ts';
import { OwnLapPicker } from '#web/components/own-lap-picker.tsx';
import { lossReason, lossTitle, topLosses } from '#web/lib/loss-cards.ts';
import { CornerTable } from '#web/components/corner-table.tsx';
import { CompareCharts, LAP_COLOUR, lapName } from './compare-charts';
import { ErrorAlert, Loading } from '#web/components/ui/query-status.tsx';
import { SummaryItem } from '#web/components/ui/summary-item.tsx';

const REFERENCE_COLOUR = '#b388ff';
const RECORD_COLOUR = '#69f0ae';

/**
 * The address's comparison: ?hw&pista&data&volta is the lap; its reference is ref=recorde (the
 * rider's record there), ref=volta&rhw&rpista&rdata&rvolta (another of their laps), or
 * ref=link&link=<secret>[&rvolta] (a friend's shared lap).
 */
export function compareFromQuery(params: URLSearchParams): CompareRequest | null {
  const s = addressFromQuery(params);
  const lap = params.get('volta');
  if (!s || !lap) return null;
  const ref = params.get('ref');
  if (ref === 'recorde') return { ...s, lap, reference: 'record' };
  if (ref === 'link' && params.get('link')) {
    const refLap = params.get('rvolta');
    return { ...s, lap, reference: 'share', share: params.get('link')!, ...(refLap ? { refLap } : {}) };
  }
  const [refDevice, refTrack, refDate, refLap] = ['rhw', 'rpista', 'rdata', 'rvolta'].map((k) => params.get(k));
  if (ref === 'volta' && refDevice && refTrack && refDate && refLap)
    return { ...s, lap, reference: 'lap', refDevice, refTrack, refDate, refLap };
  return null;
}

/** The address's part that names another of the rider's laps as the reference (compareFromQuery reads it). */
const lapReference = (s: SessionAddress, lap: string) => ({
  ref: 'volta',
  rhw: s.device,
  rpista: s.track,
  rdata: s.date,
  rvolta: lap,
});

/**
 * What /comparar opens on when nothing is asked (from the menu): the rider's most recent
 * session's best lap against their record at that track; when the record is a lap of that
 * session, its fastest other flying lap against the record; without a record, its two best laps.
 * Laps ordered as the GPS timed them (what the comparison reads); null when nothing is left to compare.
 */
export function firstComparison(
  session: SessionAddress,
  laps: readonly { heat: string; number: number; seconds: number | null; kind: string; complete: boolean }[],
  record: PersonalBest | undefined,
): Record<string, string> | null {
  const flying = laps
    .flatMap((l) => (l.kind === 'flying' && l.complete && l.seconds !== null ? [{ ...l, seconds: l.seconds }] : []))
    .sort((a, b) => a.seconds - b.seconds);
  const key = (l: { heat: string; number: number }) => `${l.heat}${l.number}`;
  const [best, second] = flying;
  if (!best) return null;
  if (record) {
    const recordHere = record.device === session.device && record.date === session.date;
    const lap = recordHere ? flying.find((l) => key(l) !== `${record.heat}${record.lapCount}`) : best;
    return lap ? { ...addressToQuery(session), volta: key(lap), ref: 'recorde' } : null;
  }
  if (!second) return null;
  return { ...addressToQuery(session), volta: key(second), ...lapReference(session, key(best)) };
}

/** Opened with nothing asked: the comparison firstComparison picks, written into the address (replacing it). */
function useFirstComparison(wanted: boolean, onFound: (query: Record<string, string>) => void) {
  const latest = useMostRecentSession(wanted);
  const session = wanted ? (latest.data?.sessions[0] ?? null) : null;
  const laps = useTrackLapTimes(session);
  const records = useRecords(wanted);
  const record = session ? records.data?.records.find((r) => r.tracks.includes(session.track)) : undefined;
  const found = session && laps.data && records.data ? firstComparison(session, laps.data.laps, record) : null;
  const query = found ? new URLSearchParams(found).toString() : null;
  useEffect(() => {
    if (query) onFound(Object.fromEntries(new URLSearchParams(query)));
  }, [query, onFound]);
  const error = latest.error ?? laps.error ?? records.error;
  return {
    searching:
      wanted &&
      !error &&
      (latest.isPending || (session !== null && (laps.isPending || records.isPending)) || found !== null),
    noSessions: latest.data?.sessions.length === 0,
    oneLap: Boolean(session && laps.data && records.data && !found),
    error,
  };
}

/**
 * Two laps of one track, whatever their days (or riders, through a shared link): speed, lean and
 * the time gap against position along the track, the corners side by side and where the time went.
 * `Video`: the two laps' videos side by side (the video feature's, handed in by the app).
 */
export function ComparePage({ Video }: { Video?: LapVideosSlot } = {}) {
  const t = useT();
  const units = useUnits();
  const [params, setParams] = useSearchParams();
  const request = compareFromQuery(params);
  const compare = useCompare(request);
  const records = useRecords();
  const data = compare.data;
  const session = addressFromQuery(params);
  const record = session ? records.data?.records.find((r) => r.tracks.includes(session.track)) : undefined;
  const first = useFirstComparison(
    params.size === 0,
    useCallback((query: Record<string, string>) => setParams(query, { replace: true }), [setParams]),
  );
  // The videos' position along the track (the charts' cursor), and a chart click that moves them.
  const [videoPosition, setVideoPosition] = useState<number | null>(null);
  const [videoSeek, setVideoSeek] = useState<{ positionM: number; seq: number } | null>(null);
  const seekVideos = useCallback(
    (positionM: number) => setVideoSeek((s) => ({ positionM, seq: (s?.seq ?? 0) + 1 })),
    [],
  );
  const isRecord = (l: CompareResponse['lap']) =>
    Boolean(
      record &&
      l.device === record.device &&
      l.date === record.date &&
      l.heat === record.heat &&
      l.number === record.lapCount,
    );

  return (
    <Page
      title={t('history.compareTitle')}
      menu={[
        { to: '/user', label: t('menu.home') },
        { to: '/sessoes', label: t('menu.minhasSessoes') },
        ...(session
          ? [{ to: `/laps?${new URLSearchParams(addressToQuery(session)).toString()}`, label: t('menu.laps') }]
          : []),
      ]}
    >
      {first.searching && <Loading>{t('history.compareFinding')}</Loading>}
      {first.noSessions && (
        <p className="empty-state">
          {t('history.empty')} <Link to="/importar">{t('history.importLink')}</Link>
        </p>
      )}
      {first.oneLap && <p className="empty-state">{t('history.compareOneLap')}</p>}
      <ErrorAlert error={first.error} />
      {!request && params.size > 0 && <p className="empty-state">{t('history.compareNoSessions')}</p>}
      {session && request && (
        <details className="notice" open={!data && !compare.isFetching}>
          <summary>{t('history.compareOther')}</summary>
          <ReferencePicker
            session={session}
            onPick={(next) =>
              setParams(new URLSearchParams({ ...addressToQuery(session), volta: request.lap, ...next }))
            }
          />
        </details>
      )}
      {compare.isFetching && !data && <Loading>{t('history.compareLoading')}</Loading>}
      <ErrorAlert error={compare.error} />
      {data && (
        <section aria-label={t('history.compareTitle')} data-testid="comparison">
          <dl className="summary">
            <LapSummary
              label={t('history.compareLap')}
              lap={data.lap}
              colour={LAP_COLOUR}
              record={isRecord(data.lap)}
            />
            <LapSummary
              label={t('history.compareReference')}
              lap={data.reference}
              colour={isRecord(data.reference) ? RECORD_COLOUR : REFERENCE_COLOUR}
              record={isRecord(data.reference)}
            />
            <SummaryItem label={t('history.chartDelta')} data-testid="compare-delta">
              {formatGap(data.comparison.deltaSeconds)}
            </SummaryItem>
          </dl>
          <p className="muted">{t('history.compareHint')}</p>
          {Video && <Video data={data} onPosition={setVideoPosition} seek={videoSeek} />}
          <CompareCharts
            data={data}
            referenceColour={isRecord(data.reference) ? RECORD_COLOUR : REFERENCE_COLOUR}
            cursorX={videoPosition}
            onPickX={Video ? seekVideos : undefined}
            units={units}
          />
          <ol className="loss-cards" data-testid="loss-cards">
            {topLosses(data.comparison.segments).length === 0 && <li className="muted">{t('tracks.noLoss')}</li>}
            {topLosses(data.comparison.segments).map((d) => (
              <li key={d.segment} className="loss-card">
                <strong>{lossTitle(t, d)}</strong>
                <span>{lossReason(t, d, units)}</span>
              </li>
            ))}
          </ol>
          <CornerTable comparison={data.comparison} units={units} testId="compare-corners" brief />
        </section>
      )}
    </Page>
  );
}

function LapSummary(props: { label: string; lap: CompareResponse['lap']; colour: string; record: boolean }) {
  const t = useT();
  return (
    <div className="summary-item">
      <dt>
        <span aria-hidden="true" style={{ color: props.colour }}>
          ■{' '}
        </span>
        {props.label}: {lapName(t, props.lap)}
      </dt>
      <dd className={props.record ? 'time-pb' : undefined}>
        {formatLapTime(props.lap.seconds * 1000)}
        {props.record && <span className="badge badge-pb">◆ {t('history.personalBest')}</span>}
      </dd>
    </div>
  );
}

/** The reference: the rider's record, or any lap of theirs at this track (a session, then a lap). */
function ReferencePicker(props: { session: SessionAddress; onPick: (query: Record<string, string>) => void }) {
  const t = useT();
  return (
    <div className="compare-pick">
      <OwnLapPicker
        track={props.session.track}
        sessionLabel={t('history.compareChooseSession')}
        lapLabel={t('history.compareChooseLap')}
        offerRecord
      >
        {(choice) => (
          <button
            type="button"
            className="btn btn-primary"
            disabled={!choice}
            onClick={() => {
              if (choice === 'record') props.onPick({ ref: 'recorde' });
              else if (choice) props.onPick(lapReference(choice.session, choice.lap));
            }}
          >
            {t('history.compareGo')}
          </button>
        )}
      </OwnLapPicker>
      <Link
        className="btn btn-secondary"
        to={`/progresso?${new URLSearchParams({ pista: props.session.track }).toString()}`}
      >
        {t('history.progressLink', { track: props.session.track })}
      </Link>
    </div>
  );
}

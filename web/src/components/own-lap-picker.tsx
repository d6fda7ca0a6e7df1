// Picking one of the rider's own laps at a track (or their record), for the compare and shared pages.
import { useState, type ReactNode } from 'react';
import type { MySessions } from '#core/contracts/sessions.contract.ts';
import { formatDdmmyyyy } from '#core/formats/dates.ts';
import { formatLapTime } from '#core/formats/lap-six.ts';
import { ErrorAlert } from '#web/components/ui/query-status.tsx';
import { useT } from '#web/i18n/messages.ts';
import { useSessionPages } from '#web/lib/history-api.ts';
import { useLaps } from '#web/lib/sessions-api.ts';

type OwnSession = MySessions['sessions'][number];
/** What the rider picked: one of their laps at the track, or (where offered) their record. */
export type OwnLapChoice = { session: OwnSession; lap: string } | 'record' | null;

/**
 * One of the rider's own laps at a track: a session there (newest first), then a flying lap of
 * it; optionally "my record" as the first choice. `children` is what follows the two selects.
 */
export function OwnLapPicker(props: {
  track: string;
  sessionLabel: string;
  lapLabel: string;
  offerRecord?: boolean;
  children: (choice: OwnLapChoice, state: { empty: boolean }) => ReactNode;
}) {
  const t = useT();
  const [session, setSession] = useState('');
  const [lap, setLap] = useState('');
  // Read as its type (decision 002): this picker rides in the analytics pages' chunk.
  const sessions = useSessionPages(props.track, 100);
  const list = sessions.data?.pages.flatMap((p) => p.sessions) ?? [];
  const picked = list.find((s) => `${s.device}/${s.date}` === session);
  const laps = useLaps(picked ? { device: picked.device, track: picked.track, date: picked.date } : null);
  const flying = laps.data?.laps.filter((l) => l.kind === 'flying') ?? [];
  const choice: OwnLapChoice = session === 'record' ? 'record' : picked && lap ? { session: picked, lap } : null;
  return (
    <>
      <label>
        {props.sessionLabel}
        <select
          value={session}
          onChange={(e) => {
            setSession(e.target.value);
            setLap('');
          }}
        >
          <option value="">—</option>
          {props.offerRecord && <option value="record">{t('history.compareRecord')}</option>}
          {list.map((s) => (
            <option key={`${s.device}/${s.date}`} value={`${s.device}/${s.date}`}>
              {t('history.sessionLabel', { track: s.track, date: formatDdmmyyyy(s.date) })}
              {s.bestLapMs !== null ? ` · ${formatLapTime(s.bestLapMs)}` : ''}
            </option>
          ))}
        </select>
      </label>
      {picked && (
        <label>
          {props.lapLabel}
          <select value={lap} onChange={(e) => setLap(e.target.value)}>
            <option value="">—</option>
            {flying.map((l) => (
              <option key={`${l.heat}${l.lapCount}`} value={`${l.heat}${l.lapCount}`}>
                {`${l.heat}${l.lapCount} · ${formatLapTime(l.lapTimeMs)}`}
              </option>
            ))}
          </select>
        </label>
      )}
      {props.children(choice, { empty: sessions.isSuccess && list.length === 0 })}
      <ErrorAlert error={sessions.error ?? laps.error} />
    </>
  );
}

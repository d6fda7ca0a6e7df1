// Live updates while signed in: the server's events (/api/events) refresh what a new upload changes and
// announce a new personal best. Loaded after the first paint (main.tsx); pages work without it.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { SessionEventMessage } from '#core/contracts/sessions.contract.ts';
import { formatLapTime } from '#core/formats/lap-six.ts';
import { useT } from '../i18n/messages';
import { decimal } from './format';
import { useMe } from './session';
import { queryKeys } from './query-keys';

interface NewRecord {
  track: string;
  lapTimeMs: number;
  previousMs: number;
}

/**
 * A structural check of the event's shape (SessionEventMessage), no schema: this module loads on every
 * signed-in page, and zod stays off their first load (decision 002). The server wrote the event.
 */
function isSessionEvent(e: Partial<SessionEventMessage> | null): e is SessionEventMessage {
  return (
    !!e &&
    typeof e === 'object' &&
    e.type === 'session-updated' &&
    typeof e.deviceId === 'string' &&
    typeof e.track === 'string' &&
    typeof e.date === 'string' &&
    (e.personalBest === undefined ||
      (typeof e.personalBest?.lapTimeMs === 'number' && typeof e.personalBest?.previousMs === 'number'))
  );
}

/**
 * While signed in, listens to /api/events and refreshes what a new upload changes: track and
 * date lists, that session's laps and GPS, the latest session on home, the rider's sessions and
 * records. A new personal best is announced (read out by screen readers) until dismissed.
 */
export function LiveUpdates() {
  const t = useT();
  const me = useMe();
  const qc = useQueryClient();
  const signedIn = Boolean(me.data);
  const [record, setRecord] = useState<NewRecord | null>(null);
  useEffect(() => {
    if (!signedIn || typeof EventSource === 'undefined') return;
    const source = new EventSource('/api/events');
    source.addEventListener('session', (ev) => {
      let event: Partial<SessionEventMessage> | null;
      try {
        event = JSON.parse((ev as MessageEvent<string>).data) as Partial<SessionEventMessage> | null;
      } catch {
        return;
      }
      if (!isSessionEvent(event)) return;
      const { deviceId, track, date, personalBest } = event;
      const session = { device: deviceId, track, date };
      for (const queryKey of [
        queryKeys.latestSession,
        queryKeys.me,
        queryKeys.tracks.of(deviceId),
        queryKeys.dates.of(deviceId, track),
        queryKeys.mySessions.all,
        queryKeys.records,
        queryKeys.progress.all,
        queryKeys.laps.of(session),
        queryKeys.analysis.of(session),
        queryKeys.gpsColumns.of(session),
      ])
        void qc.invalidateQueries({ queryKey });
      if (personalBest) setRecord({ track, ...personalBest });
    });
    return () => source.close();
  }, [signedIn, qc]);
  return (
    <div
      role="status"
      aria-live="assertive"
      className={record ? 'pb-banner' : 'visually-hidden'}
      data-testid="new-record"
    >
      {record && (
        <>
          <span>
            {t('history.newRecord', {
              track: record.track,
              time: formatLapTime(record.lapTimeMs),
              gain: decimal((record.previousMs - record.lapTimeMs) / 1000, 3),
            })}
          </span>
          <button type="button" className="btn btn-secondary btn-small" onClick={() => setRecord(null)}>
            {t('history.dismiss')}
          </button>
        </>
      )}
    </div>
  );
}

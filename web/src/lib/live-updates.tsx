import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { sessionEventSchema } from '../../../core/contracts/sessions.contract';
import { useMe } from './session';

/**
 * While signed in, listens to /api/events and refreshes what a new upload changes: track and
 * date lists, that session's laps and GPS, and the latest session on home. No reload needed.
 */
export function LiveUpdates() {
  const me = useMe();
  const qc = useQueryClient();
  const signedIn = Boolean(me.data);
  useEffect(() => {
    if (!signedIn || typeof EventSource === 'undefined') return;
    const source = new EventSource('/api/events');
    source.addEventListener('session', (ev) => {
      let parsed;
      try {
        parsed = sessionEventSchema.safeParse(JSON.parse((ev as MessageEvent<string>).data));
      } catch {
        return;
      }
      if (!parsed.success) return;
      const { deviceId, track, date } = parsed.data;
      void qc.invalidateQueries({ queryKey: ['latest'] });
      void qc.invalidateQueries({ queryKey: ['me'] });
      void qc.invalidateQueries({ queryKey: ['tracks', deviceId] });
      void qc.invalidateQueries({ queryKey: ['dates', deviceId, track] });
      for (const key of ['laps', 'analysis', 'gps-columns']) void qc.invalidateQueries({ queryKey: [key, deviceId, track, date] });
    });
    return () => source.close();
  }, [signedIn, qc]);
  return null;
}

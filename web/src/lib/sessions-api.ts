import { useQuery } from '@tanstack/react-query';
import {
  datesResponseSchema,
  lapsResponseSchema,
  latestSessionSchema,
  tracksResponseSchema,
} from '#core/contracts/sessions.contract.ts';
import { trackAnalysisResponseSchema, trackLapTimesSchema } from '#core/contracts/tracks.contract.ts';
import { apiRequest } from './api-client';
import { sessionPath, type SessionAddress } from '#core/contracts/session-paths.ts';

const seg = encodeURIComponent;

export function useTracks(device: string | undefined) {
  return useQuery({
    queryKey: ['tracks', device],
    queryFn: () => apiRequest(`/api/devices/${seg(device!)}/tracks`, { schema: tracksResponseSchema }),
    enabled: Boolean(device),
  });
}

export function useDates(device: string | undefined, track: string | undefined) {
  return useQuery({
    queryKey: ['dates', device, track],
    queryFn: () =>
      apiRequest(`/api/devices/${seg(device!)}/tracks/${seg(track!)}/dates`, { schema: datesResponseSchema }),
    enabled: Boolean(device && track),
  });
}

export const lapsQuery = (s: SessionAddress | null) => ({
  queryKey: ['laps', s?.device, s?.track, s?.date],
  queryFn: () => apiRequest(`${sessionPath(s!)}/laps`, { schema: lapsResponseSchema }),
});

export function useLaps(s: SessionAddress | null) {
  return useQuery({ ...lapsQuery(s), enabled: s !== null });
}

export function useLatestSession() {
  return useQuery({
    queryKey: ['latest'],
    queryFn: () => apiRequest('/api/sessions/latest', { schema: latestSessionSchema }),
  });
}

export { sessionPath };

/** The session's laps timed at the track's start/finish, corners, segments and one lap against a reference. */
export function useTrackAnalysis(s: SessionAddress | null, chosen: { lap?: number; reference?: number } = {}) {
  const query = new URLSearchParams();
  if (chosen.lap !== undefined) query.set('lap', String(chosen.lap));
  if (chosen.reference !== undefined) query.set('reference', String(chosen.reference));
  const suffix = query.size ? `?${query.toString()}` : '';
  return useQuery({
    queryKey: ['track-analysis', s?.device, s?.track, s?.date, chosen.lap ?? null, chosen.reference ?? null],
    queryFn: () => apiRequest(`${sessionPath(s!)}/track-analysis${suffix}`, { schema: trackAnalysisResponseSchema }),
    enabled: Boolean(s),
    // Choosing other laps keeps the last answer on screen until the new one arrives.
    placeholderData: (previous) => previous,
  });
}

/** The ideal lap and each lap's GPS time, for the laps screen (the same answer, read for less). */
export function useTrackLapTimes(s: SessionAddress | null) {
  return useQuery({
    queryKey: ['track-lap-times', s?.device, s?.track, s?.date],
    queryFn: () => apiRequest(`${sessionPath(s!)}/track-analysis`, { schema: trackLapTimesSchema }),
    enabled: Boolean(s),
  });
}

/** Deletes an imported session (its importer only; the server refuses a device session). */
export function deleteImportedSession(s: SessionAddress): Promise<unknown> {
  return apiRequest(sessionPath(s), { method: 'DELETE' });
}

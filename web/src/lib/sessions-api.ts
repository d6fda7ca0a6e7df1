import { useQuery } from '@tanstack/react-query';
// The answers are read as the types of the schemas the server validated them against (decision
// 002): type-only imports, so no schema code reaches the laps and analytics pages.
import type { DatesResponse, LapsResponse, LatestSession, TracksResponse } from '#core/contracts/sessions.contract.ts';
import type { TrackAnalysisResponse, TrackLapTimes } from '#core/contracts/tracks.contract.ts';
import { apiRequest } from './api-client';
import { sessionPath, type SessionAddress } from '#core/contracts/session-paths.ts';

const seg = encodeURIComponent;

export function useTracks(device: string | undefined) {
  return useQuery({
    queryKey: ['tracks', device],
    queryFn: () => apiRequest<TracksResponse>(`/api/devices/${seg(device!)}/tracks`),
    enabled: Boolean(device),
  });
}

export function useDates(device: string | undefined, track: string | undefined) {
  return useQuery({
    queryKey: ['dates', device, track],
    queryFn: () => apiRequest<DatesResponse>(`/api/devices/${seg(device!)}/tracks/${seg(track!)}/dates`),
    enabled: Boolean(device && track),
  });
}

export const lapsQuery = (s: SessionAddress | null) => ({
  queryKey: ['laps', s?.device, s?.track, s?.date],
  queryFn: () => apiRequest<LapsResponse>(`${sessionPath(s!)}/laps`),
});

export function useLaps(s: SessionAddress | null) {
  return useQuery({ ...lapsQuery(s), enabled: s !== null });
}

export function useLatestSession() {
  return useQuery({
    queryKey: ['latest'],
    queryFn: () => apiRequest<LatestSession>('/api/sessions/latest'),
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
    queryFn: () => apiRequest<TrackAnalysisResponse>(`${sessionPath(s!)}/track-analysis${suffix}`),
    enabled: Boolean(s),
    // Choosing other laps keeps the last answer on screen until the new one arrives.
    placeholderData: (previous) => previous,
  });
}

/** The ideal lap and each lap's GPS time, for the laps screen (the same answer, typed as what it uses). */
export function useTrackLapTimes(s: SessionAddress | null) {
  return useQuery({
    queryKey: ['track-lap-times', s?.device, s?.track, s?.date],
    queryFn: () => apiRequest<TrackLapTimes>(`${sessionPath(s!)}/track-analysis`),
    enabled: Boolean(s),
  });
}

/** Deletes an imported session (its importer only; the server refuses a device session). */
export function deleteImportedSession(s: SessionAddress): Promise<unknown> {
  return apiRequest(sessionPath(s), { method: 'DELETE' });
}

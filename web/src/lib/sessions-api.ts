import { queryOptions, type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
// The answers are read as the types of the schemas the server validated them against (decision
// 002): type-only imports, so no schema code reaches the laps and analytics pages.
import type { DatesResponse, LapsResponse, LatestSession, TracksResponse } from '#core/contracts/sessions.contract.ts';
import type { TrackAnalysisResponse, TrackLapTimes } from '#core/contracts/tracks.contract.ts';
import { apiRequest } from './api-client';
import { addressFromQuery, sessionPath, type SessionAddress } from '#core/contracts/session-paths.ts';
import { queryKeys } from './query-keys';
import { meQuery, selectableDevices } from './session';

const seg = encodeURIComponent;

const tracksQuery = (device: string | undefined) =>
  queryOptions({
    queryKey: queryKeys.tracks.of(device),
    queryFn: () => apiRequest<TracksResponse>(`/api/devices/${seg(device!)}/tracks`),
    enabled: Boolean(device),
  });

export function useTracks(device: string | undefined) {
  return useQuery(tracksQuery(device));
}

const datesQuery = (device: string | undefined, track: string | undefined) =>
  queryOptions({
    queryKey: queryKeys.dates.of(device, track),
    queryFn: () => apiRequest<DatesResponse>(`/api/devices/${seg(device!)}/tracks/${seg(track!)}/dates`),
    enabled: Boolean(device && track),
  });

export function useDates(device: string | undefined, track: string | undefined) {
  return useQuery(datesQuery(device, track));
}

export const lapsQuery = (s: SessionAddress | null) =>
  queryOptions({
    queryKey: queryKeys.laps.of(s),
    queryFn: () => apiRequest<LapsResponse>(`${sessionPath(s!)}/laps`),
    enabled: s !== null,
  });

export function useLaps(s: SessionAddress | null) {
  return useQuery(lapsQuery(s));
}

/**
 * What /laps opens on, asked for beside its code: the address's laps, and the selector's lists
 * (the address's device and track, else the first ones, as SessionSelector chooses them). The
 * page then draws itself with its choice made, not again as each list arrives. A failure is
 * left to the page, which asks again and shows it.
 */
export function prefetchLapsPage(queryClient: QueryClient, search: URLSearchParams): void {
  const address = addressFromQuery(search);
  if (address) void queryClient.prefetchQuery(lapsQuery(address));
  const lists = async () => {
    const me = await queryClient.ensureQueryData(meQuery);
    if (!me) return;
    const devices = selectableDevices(me);
    const device = address && devices.includes(address.device) ? address.device : devices[0]!;
    const { tracks } = await queryClient.ensureQueryData(tracksQuery(device));
    const track = address && tracks.includes(address.track) ? address.track : tracks[0];
    if (track) await queryClient.prefetchQuery(datesQuery(device, track));
  };
  lists().catch(() => {});
}

export function useLatestSession() {
  return useQuery({
    queryKey: queryKeys.latestSession,
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
    queryKey: queryKeys.trackAnalysis.of(s, chosen),
    queryFn: () => apiRequest<TrackAnalysisResponse>(`${sessionPath(s!)}/track-analysis${suffix}`),
    enabled: Boolean(s),
    // Choosing other laps keeps the last answer on screen until the new one arrives.
    placeholderData: (previous) => previous,
  });
}

/** The ideal lap and each lap's GPS time, for the laps screen (the same answer, typed as what it uses). */
export function useTrackLapTimes(s: SessionAddress | null) {
  return useQuery({
    queryKey: queryKeys.trackLapTimes.of(s),
    queryFn: () => apiRequest<TrackLapTimes>(`${sessionPath(s!)}/track-analysis`),
    enabled: Boolean(s),
  });
}

/**
 * Deletes an imported session (its importer only; the server refuses a device session). Its tracks
 * and dates are then gone, and with its last session the collection itself: asked again before `onDeleted`.
 */
export function useDeleteImportedSession(onDeleted: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (s: SessionAddress) => apiRequest(sessionPath(s), { method: 'DELETE' }),
    onSuccess: async () => {
      for (const key of [queryKeys.tracks.all, queryKeys.dates.all, queryKeys.laps.all])
        queryClient.removeQueries({ queryKey: key });
      await queryClient.invalidateQueries({ queryKey: queryKeys.me });
      onDeleted();
    },
  });
}

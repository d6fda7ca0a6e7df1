// The analytics page's reads: the session's analysis, plus the GPS columns and track analysis it
// shares with other pages, the corner study, and the track panel's reads and changes. `prefetchAnalytics` lets the router start the analysis and laps beside the page's code.
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { AnalysisResponse } from '#core/contracts/sessions.contract.ts';
import type { CoachingResponse, TrackSummary } from '#core/contracts/tracks.contract.ts';
import type { Units } from '#core/units.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { queryKeys } from '#web/lib/query-keys.ts';
import { addressFromQuery, type SessionAddress } from '#core/contracts/session-paths.ts';
import { lapsQuery, sessionPath } from '#web/lib/sessions-api.ts';

export { useTrackAnalysis } from '#web/lib/sessions-api.ts';

export { useGpsColumnsFor as useGpsColumns, useGpsProgress } from '#web/lib/gps-columns.ts';

const analysisQuery = (s: SessionAddress) => ({
  queryKey: queryKeys.analysis.of(s),
  // Read as its type, not parsed: the server validated it (decision 002).
  queryFn: () => apiRequest<AnalysisResponse>(`${sessionPath(s)}/analysis`),
});

export function useAnalysis(s: SessionAddress | null) {
  return useQuery({ ...analysisQuery(s ?? { device: '', track: '', date: '' }), enabled: Boolean(s) });
}

/** Started by the route loader: the analysis and laps download beside the page's own code. */
export function prefetchAnalytics(qc: QueryClient, search: URLSearchParams): void {
  const s = addressFromQuery(search);
  if (!s) return;
  void qc.prefetchQuery(analysisQuery(s));
  void qc.prefetchQuery(lapsQuery(s));
}

/** Which lap against which reference ('A3' against 'ideal', 'record' or 'A2'); empty: the best lap against the ideal lap. */
export interface CoachingChoice {
  lap?: string | undefined;
  ref?: string | undefined;
}

/** The corner study of a session's lap, in the page's language (the request's) and the rider's units. */
export function useCoaching(s: SessionAddress | null, choice: CoachingChoice, units: Units) {
  const query = new URLSearchParams();
  if (choice.lap) query.set('lap', choice.lap);
  if (choice.ref) query.set('ref', choice.ref);
  query.set('units', units);
  return useQuery({
    queryKey: queryKeys.coaching.of(s, choice, units),
    queryFn: () => apiRequest<CoachingResponse>(`${sessionPath(s!)}/coaching?${query.toString()}`),
    enabled: Boolean(s),
    placeholderData: (previous) => previous,
    retry: false,
  });
}

/** Where the track-analysis answers are: a renamed track or a session put on another circuit changes them. */
function useRefreshTrackAnalysis() {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: queryKeys.trackAnalysis.all }),
      qc.invalidateQueries({ queryKey: queryKeys.trackLapTimes.all }),
    ]);
}

/** Renames a track the rider's session defined. */
export function useRenameTrack(trackId: string, onRenamed: () => void) {
  const refresh = useRefreshTrackAnalysis();
  return useMutation({
    mutationFn: (name: string) =>
      apiRequest<TrackSummary>(`/api/tracks/${encodeURIComponent(trackId)}/name`, { method: 'PUT', body: { name } }),
    onSuccess: () => {
      onRenamed();
      void refresh();
    },
  });
}

/** Says which catalogue circuit the session was really on. */
export function useChooseCircuit(s: SessionAddress) {
  const refresh = useRefreshTrackAnalysis();
  return useMutation({
    mutationFn: (catalogueId: string) =>
      apiRequest<TrackSummary>(`${sessionPath(s)}/track`, { method: 'PUT', body: { catalogueId } }),
    onSuccess: () => void refresh(),
  });
}

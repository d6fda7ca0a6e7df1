// The analytics page's reads: the session's analysis, plus the GPS columns and track analysis it
// shares with other pages. `prefetchAnalytics` lets the router start the analysis and laps beside the page's code.
import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { AnalysisResponse } from '#core/contracts/sessions.contract.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { addressFromQuery, type SessionAddress } from '#core/contracts/session-paths.ts';
import { lapsQuery, sessionPath } from '#web/lib/sessions-api.ts';

export { useTrackAnalysis } from '#web/lib/sessions-api.ts';

export { useGpsColumnsFor as useGpsColumns, useGpsProgress } from '#web/lib/gps-columns.ts';

const analysisQuery = (s: SessionAddress) => ({
  queryKey: ['analysis', s.device, s.track, s.date],
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

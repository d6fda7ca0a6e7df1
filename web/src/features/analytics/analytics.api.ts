import { useQuery, type QueryClient } from '@tanstack/react-query';
import { analysisResponseSchema } from '../../../../core/contracts/sessions.contract';
import { apiRequest } from '../../lib/api-client';
import type { SessionRef } from '../../lib/gps-columns';
import { lapsQuery, sessionPath } from '../../lib/sessions-api';

export type { SessionRef };
export { useGpsColumnsFor as useGpsColumns } from '../../lib/gps-columns';

export const analysisQuery = (s: SessionRef) => ({
  queryKey: ['analysis', s.hw, s.pista, s.data],
  queryFn: () => apiRequest(`${sessionPath(s.hw, s.pista, s.data)}/analysis`, { schema: analysisResponseSchema }),
});

export function useAnalysis(s: SessionRef | null) {
  return useQuery({ ...analysisQuery(s ?? { hw: '', pista: '', data: '' }), enabled: Boolean(s) });
}

/** Started by the route loader: the analysis and laps download beside the page's own code. */
export function prefetchAnalytics(qc: QueryClient, search: URLSearchParams): void {
  const hw = search.get('hw');
  const pista = search.get('pista');
  const data = search.get('data');
  if (!hw || !pista || !data) return;
  const s = { hw, pista, data };
  void qc.prefetchQuery(analysisQuery(s));
  void qc.prefetchQuery(lapsQuery(hw, pista, data));
}


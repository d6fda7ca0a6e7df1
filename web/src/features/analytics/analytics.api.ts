import { useQuery } from '@tanstack/react-query';
import { analysisResponseSchema } from '../../../../core/contracts/sessions.contract';
import { apiRequest } from '../../lib/api-client';
import type { SessionRef } from '../../lib/gps-columns';
import { sessionPath } from '../../lib/sessions-api';

export type { SessionRef };
export { useGpsColumnsFor as useGpsColumns } from '../../lib/gps-columns';

export function useAnalysis(s: SessionRef | null) {
  return useQuery({
    queryKey: ['analysis', s?.hw, s?.pista, s?.data],
    queryFn: () => apiRequest(`${sessionPath(s!.hw, s!.pista, s!.data)}/analysis`, { schema: analysisResponseSchema }),
    enabled: Boolean(s),
  });
}


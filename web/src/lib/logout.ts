import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from './api-client';
import { queryKeys } from './query-keys';
import { forgetKeptAnswers } from './offline';

/**
 * Signs out and forgets every cached answer but "who am I" (now null). Apart from session.ts,
 * which the first page loads: this pulls in TanStack's mutation code, wanted only after sign-in.
 */
export function useLogout() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<{ ok: true }>('/api/auth/logout', { method: 'POST' }),
    onSettled: async () => {
      await forgetKeptAnswers();
      qc.setQueryData(queryKeys.me, null);
      qc.removeQueries({ predicate: (q) => q.queryKey[0] !== queryKeys.me[0] });
    },
  });
}

// The profile page's writes: the rider's profile, and revoking one of their devices' upload tokens.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { okSchema } from '#core/contracts/common.contract.ts';
import type { ProfileInput } from '#core/contracts/me.contract.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { queryKeys } from '#web/lib/query-keys.ts';

export function useRevokeDeviceToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(`/api/me/devices/${encodeURIComponent(id)}/token`, { method: 'DELETE', schema: okSchema }),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.me }),
  });
}

export function useSaveProfile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: ProfileInput) =>
      apiRequest('/api/me/profile', { method: 'PUT', body: input, schema: okSchema }),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.me }),
  });
}

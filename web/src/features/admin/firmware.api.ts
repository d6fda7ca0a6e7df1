// What the fleet and firmware pages read and change: device health, signed images, rollouts.
// Cached under the admin key, so that any admin change reloads them with the other admin lists.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fleetSchema, healthHistorySchema } from '#core/contracts/device-health.contract.ts';
import { okSchema } from '#core/contracts/common.contract.ts';
import {
  cohortMembersSchema,
  firmwareCreatedSchema,
  firmwareListSchema,
  rolloutCreatedSchema,
  rolloutListSchema,
  rolloutSchema,
  type RolloutState,
} from '#core/contracts/firmware.contract.ts';
import { isErrorCode } from '#core/errors.ts';
import { ApiError, apiRequest, languageHeaders } from '#web/lib/api-client.ts';
import { queryKeys } from '#web/lib/query-keys.ts';

const KEY = queryKeys.admin.all;
/** A rollout moves as devices report: its page asks again this often while open. */
const LIVE_MS = 4_000;

/** The fleet's health; `live` (the firmware page, watching a rollout) asks as often as the rollouts do. */
export const useAdminFleet = (live = false) =>
  useQuery({
    queryKey: queryKeys.admin.fleet,
    queryFn: () => apiRequest('/api/admin/fleet', { schema: fleetSchema }),
    refetchInterval: live ? LIVE_MS : LIVE_MS * 4,
  });

/** One device's kept check-ins, newest first (null: none chosen). */
export const useDeviceHistory = (id: string | null) =>
  useQuery({
    queryKey: queryKeys.admin.deviceHealth(id),
    queryFn: async () =>
      (await apiRequest(`/api/admin/devices/${encodeURIComponent(id!)}/health`, { schema: healthHistorySchema }))
        .history,
    enabled: id !== null,
  });

export const useFirmwareList = () =>
  useQuery({
    queryKey: queryKeys.admin.firmware,
    queryFn: async () => (await apiRequest('/api/admin/firmware', { schema: firmwareListSchema })).firmware,
  });

export const useRollouts = () =>
  useQuery({
    queryKey: queryKeys.admin.rollouts,
    queryFn: async () => (await apiRequest('/api/admin/rollouts', { schema: rolloutListSchema })).rollouts,
    refetchInterval: LIVE_MS,
  });

/** Who is in the internal or beta cohort. */
export const useCohortMembers = () =>
  useQuery({
    queryKey: queryKeys.admin.cohorts,
    queryFn: async () => (await apiRequest('/api/admin/cohorts', { schema: cohortMembersSchema })).users,
  });

function useAdminChange<I, O>(request: (input: I) => Promise<O>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: request, onSuccess: () => qc.invalidateQueries({ queryKey: KEY }) });
}

/** POST /api/admin/firmware: the signed manifest, checked against the server's public keys. */
export const useCreateFirmware = () =>
  useAdminChange((i: { manifest: string; signature: string }) =>
    apiRequest('/api/admin/firmware', { method: 'POST', body: i, schema: firmwareCreatedSchema }),
  );

export const useCreateRollout = () =>
  useAdminChange(
    (i: {
      firmwareId: string;
      cohorts: string[];
      percent: number;
      failureThresholdPct: number;
      minDevices: number;
      minBatteryPct?: number;
    }) => apiRequest('/api/admin/rollouts', { method: 'POST', body: i, schema: rolloutCreatedSchema }),
  );

export const usePatchRollout = () =>
  useAdminChange((i: { id: string; state?: Exclude<RolloutState, 'halted' | 'done'>; percent?: number }) =>
    apiRequest(`/api/admin/rollouts/${encodeURIComponent(i.id)}`, {
      method: 'PATCH',
      body: { state: i.state, percent: i.percent },
      schema: rolloutSchema,
    }),
  );

/**
 * PUT /api/admin/firmware/:id/image with upload progress (XMLHttpRequest: fetch reports none).
 * Rejects with an ApiError carrying the server's code; a cut connection with a network error.
 */
export function uploadFirmwareImage(
  id: string,
  image: Blob,
  onProgress: (share: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', `/api/admin/firmware/${encodeURIComponent(id)}/image`);
    xhr.setRequestHeader('content-type', 'application/octet-stream');
    for (const [name, value] of Object.entries(languageHeaders())) xhr.setRequestHeader(name, value);
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve();
      const body = xhr.response as { code?: string; message?: string; requestId?: string } | null;
      const code = isErrorCode(body?.code) ? body.code : 'storage/unknown';
      reject(new ApiError(code, xhr.status, body?.message ?? `HTTP ${xhr.status}`, {}, body?.requestId));
    };
    xhr.onerror = () => reject(new ApiError('auth/network-request-failed', 0, 'network error'));
    xhr.onabort = () => reject(new ApiError('storage/canceled', 0, 'canceled'));
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(image);
  });
}

/** PUT /api/admin/users/:email/cohort: puts a user's devices in a cohort, or in none (''). */
export const useSetCohort = () =>
  useAdminChange((i: { email: string; cohort: '' | 'internal' | 'beta' }) =>
    apiRequest(`/api/admin/users/${encodeURIComponent(i.email)}/cohort`, {
      method: 'PUT',
      body: { cohort: i.cohort },
      schema: okSchema,
    }),
  );

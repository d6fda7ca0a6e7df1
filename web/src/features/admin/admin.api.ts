// What the admin pages read and change on the server: users, sellers, devices, the audit log and tracks.
// Every list is cached under one 'admin' key, so any admin change reloads them all.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  adminDeviceSchema,
  adminUserSchema,
  auditEntrySchema,
  deviceTokenResponseSchema,
  ownerChangeResponseSchema,
} from '#core/contracts/admin.contract.ts';
import { okSchema } from '#core/contracts/common.contract.ts';
import { trackDetailSchema, trackListSchema, trackSummarySchema } from '#core/contracts/tracks.contract.ts';
import type { Gate } from '#core/tracks/gate.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { queryKeys } from '#web/lib/query-keys.ts';

const KEY = queryKeys.admin.all;

/** GET /api/admin/<list>, cached under ['admin', list] so that every admin change reloads it. */
const useAdminList = <T>(list: Parameters<typeof queryKeys.admin.list>[0], schema: z.ZodType<T>) =>
  useQuery({ queryKey: queryKeys.admin.list(list), queryFn: () => apiRequest(`/api/admin/${list}`, { schema }) });

export const useAdminUsers = () => useAdminList('users', z.array(adminUserSchema));
export const useAdminSellers = () => useAdminList('sellers', z.array(adminUserSchema));
export const useAdminDevices = () => useAdminList('devices', z.array(adminDeviceSchema));
export const useAudit = () => useAdminList('audit', z.array(auditEntrySchema));
export const useAdminTracks = () => useAdminList('tracks', trackListSchema);

/** A POST/PUT whose success reloads every admin list (the spec's "then the page reloads"). */
function useAdminChange<I, O>(request: (input: I) => Promise<O>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: request, onSuccess: () => qc.invalidateQueries({ queryKey: KEY }) });
}

export const useAssignOwner = () =>
  useAdminChange((i: { email: string; deviceId: string }) =>
    apiRequest('/api/admin/assign-owner', { method: 'POST', body: i, schema: ownerChangeResponseSchema }),
  );
export const useAssignBuyerSeller = () =>
  useAdminChange((i: { buyer: string; seller: string }) =>
    apiRequest('/api/admin/assign-buyer-seller', { method: 'POST', body: i, schema: okSchema }),
  );
export const useAssignDeviceSeller = () =>
  useAdminChange((i: { deviceId: string; seller: string }) =>
    apiRequest('/api/admin/assign-device-seller', { method: 'POST', body: i, schema: okSchema }),
  );
export const useRegisterDevice = () =>
  useAdminChange((i: { id: string }) =>
    apiRequest('/api/admin/devices', { method: 'POST', body: i, schema: deviceTokenResponseSchema }),
  );
export const useRotateToken = () =>
  useAdminChange((id: string) =>
    apiRequest(`/api/admin/devices/${encodeURIComponent(id)}/token`, {
      method: 'POST',
      body: {},
      schema: deviceTokenResponseSchema,
    }),
  );
export const useSetDisabled = () =>
  useAdminChange((i: { email: string; disabled: boolean }) =>
    apiRequest(`/api/admin/users/${encodeURIComponent(i.email)}/disabled`, {
      method: 'PUT',
      body: { disabled: i.disabled },
      schema: okSchema,
    }),
  );

export const useAdminTrack = (id: string | null) =>
  useQuery({
    queryKey: queryKeys.admin.track(id),
    queryFn: () => apiRequest(`/api/admin/tracks/${encodeURIComponent(id!)}`, { schema: trackDetailSchema }),
    enabled: id !== null,
  });
export const useMoveGate = () =>
  useAdminChange((i: { id: string; gate: Gate; sector?: number }) =>
    apiRequest(`/api/admin/tracks/${encodeURIComponent(i.id)}/gate`, {
      method: 'PUT',
      body: { gate: i.gate, sector: i.sector },
      schema: trackSummarySchema,
    }),
  );
export const useShareTrack = () =>
  useAdminChange((i: { id: string; shared: boolean }) =>
    apiRequest(`/api/admin/tracks/${encodeURIComponent(i.id)}/shared`, {
      method: 'PUT',
      body: { shared: i.shared },
      schema: trackSummarySchema,
    }),
  );
/** Draws a circuit's pit lane (its entry and exit lines), or clears it (null): the devices' track pack carries it. */
export const useDrawPitLane = () =>
  useAdminChange((i: { id: string; pitLane: { entry: Gate; exit: Gate } | null }) =>
    apiRequest(`/api/admin/tracks/${encodeURIComponent(i.id)}/pit-lane`, {
      method: 'PUT',
      body: { pitLane: i.pitLane },
      schema: okSchema,
    }),
  );

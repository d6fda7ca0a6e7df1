// The signed-in user (GET /api/me) and the devices they may choose.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Me } from '#core/contracts/me.contract.ts';
import { apiRequest, ApiError } from './api-client';
import { queryKeys } from './query-keys';

/** The signed-in user or null when signed out (401). Roles always come from here. */
async function fetchMe(): Promise<Me | null> {
  try {
    // Typed, not parsed: the server validates this answer against meSchema (decision 002).
    return await apiRequest<Me>('/api/me');
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.code === 'auth/user-disabled')) return null;
    throw err;
  }
}

export const meQuery = queryOptions({ queryKey: queryKeys.me, queryFn: fetchMe, staleTime: 60_000 });

export function useMe() {
  return useQuery(meQuery);
}

/** The rider's devices for selection: their own, or the demo device when they have none. */
export function selectableDevices(me: { devices: string[]; demoDevice: string }): string[] {
  return me.devices.length ? me.devices : [me.demoDevice];
}

// The signed-in user (GET /api/me) and the devices they may choose.
import { useQuery } from '@tanstack/react-query';
import type { Me } from '#core/contracts/me.contract.ts';
import { apiRequest, ApiError } from './api-client';

export const ME_KEY = ['me'] as const;

/** The signed-in user or null when signed out (401). Roles always come from here. */
export async function fetchMe(): Promise<Me | null> {
  try {
    // Typed, not parsed: the server validates this answer against meSchema (decision 002).
    return await apiRequest<Me>('/api/me');
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.code === 'auth/user-disabled')) return null;
    throw err;
  }
}

export function useMe() {
  return useQuery({ queryKey: ME_KEY, queryFn: fetchMe, staleTime: 60_000 });
}

/** The rider's devices for selection: their own, or the demo device when they have none. */
export function selectableDevices(me: { devices: string[]; demoDevice: string }): string[] {
  return me.devices.length ? me.devices : [me.demoDevice];
}

import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import {
  compareResponseSchema,
  cornerProgressResponseSchema,
  personalBestsResponseSchema,
  progressResponseSchema,
} from '#core/contracts/progress.contract.ts';
import {
  createShareResponseSchema,
  sharedLapSchema,
  sharedViewSchema,
  sharesResponseSchema,
  type SharedView,
} from '#core/contracts/shares.contract.ts';
import type { SessionAddress } from '#core/contracts/session-paths.ts';
import { apiRequest } from './api-client';

/** The rider's personal best per track; refreshed by live updates when a session arrives. */
export function useRecords(enabled = true) {
  return useQuery({
    queryKey: ['records'],
    queryFn: () => apiRequest('/api/sessions/records', { schema: personalBestsResponseSchema }),
    enabled,
    staleTime: 60_000,
  });
}

export function useProgress(track: string | null) {
  return useQuery({
    queryKey: ['progress', track],
    queryFn: () =>
      apiRequest(`/api/sessions/progress?${new URLSearchParams({ track: track! }).toString()}`, {
        schema: progressResponseSchema,
      }),
    enabled: Boolean(track),
  });
}

export function useCornerProgress(track: string | null, from: string | null, to: string | null) {
  return useQuery({
    queryKey: ['corner-progress', track, from, to],
    queryFn: () =>
      apiRequest(
        `/api/sessions/progress/corners?${new URLSearchParams({ track: track!, from: from!, to: to! }).toString()}`,
        {
          schema: cornerProgressResponseSchema,
        },
      ),
    enabled: Boolean(track && from && to && from !== to),
  });
}

/** What /comparar asks the server: the lap, and its reference (another lap, the record, or a shared link's). */
export type CompareRequest = SessionAddress & { lap: string } & (
    | { reference: 'record' }
    | { reference: 'lap'; refDevice: string; refTrack: string; refDate: string; refLap: string }
    | { reference: 'share'; share: string; refLap?: string }
  );

export function useCompare(q: CompareRequest | null) {
  const params = q
    ? new URLSearchParams(Object.entries(q).filter((e): e is [string, string] => typeof e[1] === 'string'))
    : null;
  return useQuery({
    queryKey: ['compare', params?.toString()],
    queryFn: () => apiRequest(`/api/sessions/compare?${params!.toString()}`, { schema: compareResponseSchema }),
    enabled: params !== null,
    placeholderData: (previous) => previous,
  });
}

export function useShares() {
  return useQuery({ queryKey: ['shares'], queryFn: () => apiRequest('/api/shares', { schema: sharesResponseSchema }) });
}

export function createShare(body: SessionAddress & { lap?: string; expiresInDays?: number }) {
  return apiRequest('/api/shares', { method: 'POST', body, schema: createShareResponseSchema });
}

export function revokeShare(id: string) {
  return apiRequest(`/api/shares/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    schema: z.object({ ok: z.literal(true) }),
  });
}

/** A shared link's laps, read without signing in. */
export function useSharedView(token: string) {
  return useQuery({
    queryKey: ['shared', token],
    queryFn: () => apiRequest(`/api/shared/${encodeURIComponent(token)}`, { schema: sharedViewSchema }),
    retry: false,
    initialData: () => viewOnScreen(token),
  });
}

/**
 * The view the server wrote into the page with its first screen (shares.routes.ts), when the app
 * starts on that page: the app draws the same figures at once instead of asking for them again.
 */
function viewOnScreen(token: string): SharedView | undefined {
  const data = document.getElementById('shared-view');
  if (data?.dataset.token !== token) return undefined;
  try {
    const view = sharedViewSchema.safeParse(JSON.parse(data.textContent));
    return view.success ? view.data : undefined;
  } catch {
    return undefined;
  }
}

export function useSharedLap(token: string, lap: string | null) {
  return useQuery({
    queryKey: ['shared-lap', token, lap],
    queryFn: () =>
      apiRequest(`/api/shared/${encodeURIComponent(token)}/lap${lap ? `?lap=${encodeURIComponent(lap)}` : ''}`, {
        schema: sharedLapSchema,
      }),
    retry: false,
    placeholderData: (previous) => previous,
  });
}

import { useQuery } from '@tanstack/react-query';
// Answers read as the types of the schemas the server validated them against (decision 002):
// they serve /laps and the pages of the analytics chunk (analytics, compare, progress, share).
import type {
  CompareResponse,
  CornerProgress,
  PersonalBestsResponse,
  ProgressResponse,
} from '#core/contracts/progress.contract.ts';
import type { MySessions } from '#core/contracts/sessions.contract.ts';
import type { CreateShareResponse, SharedLap, SharedView, SharesResponse } from '#core/contracts/shares.contract.ts';
import type { SessionAddress } from '#core/contracts/session-paths.ts';
import { apiRequest } from './api-client';

/** The rider's personal best per track; refreshed by live updates when a session arrives. */
export function useRecords(enabled = true) {
  return useQuery({
    queryKey: ['records'],
    queryFn: () => apiRequest<PersonalBestsResponse>('/api/sessions/records'),
    enabled,
    staleTime: 60_000,
  });
}

/** The rider's most recent session (and their circuits): what /comparar and /progresso open on. */
export function useMostRecentSession(enabled = true) {
  return useQuery({
    queryKey: ['my-sessions', 'latest'],
    queryFn: () => apiRequest<MySessions>('/api/sessions?limit=1'),
    enabled,
  });
}

export function useProgress(track: string | null) {
  return useQuery({
    queryKey: ['progress', track],
    queryFn: () =>
      apiRequest<ProgressResponse>(`/api/sessions/progress?${new URLSearchParams({ track: track! }).toString()}`),
    enabled: Boolean(track),
  });
}

export function useCornerProgress(track: string | null, from: string | null, to: string | null) {
  return useQuery({
    queryKey: ['corner-progress', track, from, to],
    queryFn: () =>
      apiRequest<CornerProgress>(
        `/api/sessions/progress/corners?${new URLSearchParams({ track: track!, from: from!, to: to! }).toString()}`,
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
    queryFn: () => apiRequest<CompareResponse>(`/api/sessions/compare?${params!.toString()}`),
    enabled: params !== null,
    placeholderData: (previous) => previous,
  });
}

export function useShares() {
  return useQuery({ queryKey: ['shares'], queryFn: () => apiRequest<SharesResponse>('/api/shares') });
}

export function createShare(body: SessionAddress & { lap?: string; expiresInDays?: number; name?: string }) {
  return apiRequest<CreateShareResponse>('/api/shares', { method: 'POST', body });
}

export function revokeShare(id: string) {
  return apiRequest<{ ok: true }>(`/api/shares/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** A shared link's laps, read without signing in. */
export function useSharedView(token: string) {
  return useQuery({
    queryKey: ['shared', token],
    queryFn: () => apiRequest<SharedView>(`/api/shared/${encodeURIComponent(token)}`),
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
    // Written by the server from the schema it validates the API's answer with (decision 002).
    return JSON.parse(data.textContent) as SharedView;
  } catch {
    return undefined;
  }
}

export function useSharedLap(token: string, lap: string | null) {
  return useQuery({
    queryKey: ['shared-lap', token, lap],
    queryFn: () =>
      apiRequest<SharedLap>(
        `/api/shared/${encodeURIComponent(token)}/lap${lap ? `?lap=${encodeURIComponent(lap)}` : ''}`,
      ),
    retry: false,
    placeholderData: (previous) => previous,
  });
}

import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
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
import { queryKeys } from './query-keys';

/** The rider's personal best per track; refreshed by live updates when a session arrives. */
export function useRecords(enabled = true) {
  return useQuery({
    queryKey: queryKeys.records,
    queryFn: () => apiRequest<PersonalBestsResponse>('/api/sessions/records'),
    enabled,
    staleTime: 60_000,
  });
}

/**
 * The rider's sessions across devices and imports (GET /api/sessions), newest first. The pages of
 * the analytics chunk read the answer as its type (decision 002); the others pass its schema,
 * `mySessionsResponseSchema`, to have it checked.
 */
type MySessionsSchema = z.ZodType<MySessions>;

/** The rider's newest `limit` sessions, and their circuits. */
export const newestSessionsQuery = (limit: number, schema?: MySessionsSchema) =>
  queryOptions({
    queryKey: queryKeys.mySessions.newest(limit),
    queryFn: () => apiRequest(`/api/sessions?limit=${limit}`, { schema }),
  });

/** Page after page of the rider's sessions (`pageSize` each), at one track or ('') all of them. */
const sessionPagesQuery = (track: string, pageSize: number, schema?: MySessionsSchema) =>
  infiniteQueryOptions({
    queryKey: queryKeys.mySessions.pages(track, pageSize),
    initialPageParam: '',
    queryFn: ({ pageParam }) => {
      const q = new URLSearchParams({ ...(track ? { track } : {}), limit: String(pageSize) });
      if (pageParam) q.set('after', pageParam);
      return apiRequest(`/api/sessions?${q.toString()}`, { schema });
    },
    getNextPageParam: (last) => last.next ?? undefined,
  });

export function useSessionPages(track: string, pageSize: number, schema?: MySessionsSchema) {
  return useInfiniteQuery(sessionPagesQuery(track, pageSize, schema));
}

/** The rider's most recent session (and their circuits): what /comparar and /progresso open on. */
export function useMostRecentSession(enabled = true) {
  return useQuery({ ...newestSessionsQuery(1), enabled });
}

export function useProgress(track: string | null) {
  return useQuery({
    queryKey: queryKeys.progress.of(track),
    queryFn: () =>
      apiRequest<ProgressResponse>(`/api/sessions/progress?${new URLSearchParams({ track: track! }).toString()}`),
    enabled: Boolean(track),
  });
}

export function useCornerProgress(track: string | null, from: string | null, to: string | null) {
  return useQuery({
    queryKey: queryKeys.cornerProgress(track, from, to),
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
    queryKey: queryKeys.compare(params?.toString()),
    queryFn: () => apiRequest<CompareResponse>(`/api/sessions/compare?${params!.toString()}`),
    enabled: params !== null,
    placeholderData: (previous) => previous,
  });
}

export function useShares() {
  return useQuery({ queryKey: queryKeys.shares, queryFn: () => apiRequest<SharesResponse>('/api/shares') });
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
    queryKey: queryKeys.shared(token),
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
    queryKey: queryKeys.sharedLap(token, lap),
    queryFn: () =>
      apiRequest<SharedLap>(
        `/api/shared/${encodeURIComponent(token)}/lap${lap ? `?lap=${encodeURIComponent(lap)}` : ''}`,
      ),
    retry: false,
    placeholderData: (previous) => previous,
  });
}

// The rider's language and units: read, saved, and negotiated with the browser's languages when signed out.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PreferencesAnswer, PreferencesInput } from '#core/contracts/preferences.contract.ts';
import { negotiatePreferences } from '#core/preferences.ts';
import type { Units } from '#core/units.ts';
import { apiRequest } from './api-client';
import { queryKeys } from './query-keys';
import { useMe } from './session';

/** The browser's languages, most wanted first (what a signed-out visitor's page follows). */
function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : [navigator.language];
}

/** The signed-in rider's language and units (GET /api/me/preferences); disabled when signed out. */
export function usePreferences() {
  const me = useMe();
  return useQuery({
    queryKey: queryKeys.preferences,
    // Typed, not parsed: the server validates its answer against preferencesSchema (decision 002).
    queryFn: () => apiRequest<PreferencesAnswer>('/api/me/preferences'),
    enabled: Boolean(me.data),
    staleTime: 60_000,
  });
}

/** Stores the rider's choice (PUT), shown at once (optimistic) and read again once stored. */
export function useSetPreferences() {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: queryKeys.preferences,
    mutationFn: (input: PreferencesInput) =>
      apiRequest<{ ok: true }>('/api/me/preferences', { method: 'PUT', body: input }),
    onMutate: async (input) => {
      await qc.cancelQueries({ queryKey: queryKeys.preferences });
      const previous = qc.getQueryData<PreferencesAnswer>(queryKeys.preferences);
      qc.setQueryData<PreferencesAnswer>(queryKeys.preferences, { ...input, chosen: true });
      return { previous };
    },
    onError: (_err, _input, context) => {
      if (context?.previous) qc.setQueryData(queryKeys.preferences, context.previous);
    },
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.preferences }),
  });
}

/** The units every speed and distance shows in: the rider's, else (signed out, or still loading) the browser's languages'. */
export function useUnits(): Units {
  const preferences = usePreferences();
  return preferences.data?.units ?? negotiatePreferences(browserLanguages()).units;
}

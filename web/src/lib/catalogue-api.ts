import { useQuery } from '@tanstack/react-query';
// Read as its type (decision 002): the search serves the analytics page and the admin's tracks.
import type { CatalogueResponse } from '#core/contracts/tracks.contract.ts';
import { apiRequest } from './api-client';
import { queryKeys } from './query-keys';

/** The catalogue's circuits whose name holds `asked` (two letters or more). */
export function useCatalogue(asked: string) {
  return useQuery({
    queryKey: queryKeys.catalogue(asked),
    queryFn: () => apiRequest<CatalogueResponse>(`/api/tracks/catalogue?q=${encodeURIComponent(asked)}`),
    enabled: asked.length >= 2,
  });
}

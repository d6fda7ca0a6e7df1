// The app's TanStack Query client and its defaults.
import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // apiRequest already retries transient failures; never retry a 4xx.
        retry: false,
        staleTime: 30_000,
        refetchOnWindowFocus: (query) => !(query.state.error instanceof ApiError),
      },
    },
  });
}

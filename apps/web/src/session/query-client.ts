import { QueryClient, QueryClientContext } from '@tanstack/react-query';
import { useContext } from 'react';
import { ApiError, isAbortError } from '../lib/api-client';
import { getSession, subscribeSession } from './session';

/** A failure worth one more try: the network or a 5xx. A 4xx will answer the same again. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= 1 || isAbortError(error)) return false;
  return !(error instanceof ApiError) || error.status >= 500;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        retryDelay: 500,
        // Customers often switch apps on their phones; data does not need refetching on every return.
        refetchOnWindowFocus: false,
        staleTime: 60_000,
      },
      mutations: { retry: false },
    },
  });
}

/**
 * The query cache of the customer's data (decision 016). It is created by the first code that reads
 * customer data (signed-in pages and blocks, loaded on demand), so no public page downloads the query
 * library; content is cached by the route loaders (content/api/content-cache.ts).
 */
export const queryClient = createQueryClient();

// Customer data must not outlive the session that fetched it.
subscribeSession(() => {
  if (!getSession().isAuthenticated) queryClient.removeQueries();
});

/**
 * The query client for a component's hooks: the one of a QueryClientProvider above it (tests give each
 * test its own), else the portal's. Pass it to useQuery and friends.
 */
export function useAppQueryClient(): QueryClient {
  return useContext(QueryClientContext) ?? queryClient;
}

import { QueryClient } from '@tanstack/react-query';
import { ApiError, isAbortError } from '../lib/api-client';

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
        // Customers often switch apps on their phones; content does not need refetching on every return.
        refetchOnWindowFocus: false,
        staleTime: 60_000,
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();

import { listAccountActivityCall } from '@portal/contracts/account-activity';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { useAppQueryClient } from '../../../session/query-client';

/** GET {portal}/api/v1/account-activity/{customerId}?cursor: the customer's activity, newest first. */
const accountActivityQuery = (customerId: string) =>
  infiniteQueryOptions({
    queryKey: ['profile', 'account-activity', customerId] as const,
    queryFn: ({ pageParam, signal }) =>
      callApi(listAccountActivityCall, {
        params: { customerId },
        query: pageParam ? { cursor: pageParam } : {},
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    retry: false,
    // Always read afresh when the page opens: what just happened must be there.
    staleTime: 0,
  });

export const useAccountActivity = (customerId: string | undefined) =>
  useInfiniteQuery(
    { ...accountActivityQuery(customerId ?? 'none'), enabled: !!customerId },
    useAppQueryClient(),
  );

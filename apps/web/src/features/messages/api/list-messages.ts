import { listMessagesCall } from '@portal/contracts/message';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { useAppQueryClient } from '../../../session/query-client';

/** The query key every page of the customer's message list is kept under. */
export const messageListKey = (customerId: string) => ['message', 'list', customerId] as const;

/** GET {document}/api/v1/message/{customerId}?page&pageSize, a page at a time. */
const messagesQuery = (customerId: string, pageSize: number) =>
  infiniteQueryOptions({
    queryKey: [...messageListKey(customerId), pageSize] as const,
    queryFn: ({ pageParam, signal }) =>
      callApi(listMessagesCall, {
        params: { customerId },
        query: { page: pageParam, pageSize },
        signal,
      }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.currentPage < last.lastPage ? last.currentPage + 1 : undefined),
  });

export const useMessages = (customerId: string | undefined, pageSize: number) =>
  useInfiniteQuery(
    { ...messagesQuery(customerId ?? '', pageSize), enabled: !!customerId },
    useAppQueryClient(),
  );

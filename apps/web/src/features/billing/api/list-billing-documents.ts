import { listBillingDocumentsCall } from '@portal/contracts/document';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { useAppQueryClient } from '../../../session/query-client';

/** GET {document}/api/v1/document/billing/{customerId}?page&pageSize, a page at a time. */
const billingDocumentsQuery = (customerId: string, pageSize: number) =>
  infiniteQueryOptions({
    queryKey: ['document', 'billing', customerId, pageSize] as const,
    queryFn: ({ pageParam, signal }) =>
      callApi(listBillingDocumentsCall, {
        params: { customerId },
        query: { page: pageParam, pageSize },
        signal,
      }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.currentPage < last.lastPage ? last.currentPage + 1 : undefined),
  });

export const useBillingDocuments = (customerId: string | undefined, pageSize: number) =>
  useInfiniteQuery(
    { ...billingDocumentsQuery(customerId ?? '', pageSize), enabled: !!customerId },
    useAppQueryClient(),
  );

import { listPolicyDocumentsCall } from '@portal/contracts/document';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { useAppQueryClient } from '../../../session/query-client';

/** GET {document}/api/v1/document/policy/{customerId}/{policyId}?page&pageSize, a page at a time. */
const policyDocumentsQuery = (customerId: string, policyId: string, pageSize: number) =>
  infiniteQueryOptions({
    queryKey: ['document', 'policy', customerId, policyId, pageSize] as const,
    queryFn: ({ pageParam, signal }) =>
      callApi(listPolicyDocumentsCall, {
        params: { customerId, policyId },
        query: { page: pageParam, pageSize },
        signal,
      }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.currentPage < last.lastPage ? last.currentPage + 1 : undefined),
  });

export const usePolicyDocuments = (
  customerId: string | undefined,
  policyId: string | null,
  pageSize: number,
) =>
  useInfiniteQuery(
    {
      ...policyDocumentsQuery(customerId ?? '', policyId ?? '', pageSize),
      enabled: !!customerId && !!policyId,
    },
    useAppQueryClient(),
  );

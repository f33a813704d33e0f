import { getPolicyCall, type Policy } from '@portal/contracts/policy';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, callApi } from '../../../lib/api-client';
import { useAppQueryClient } from '../../../session/query-client';

/** GET {policy}/api/v1/policy/{customerId}/{policyId}. 404 (not the customer's, or unknown) is null. */
const policyQuery = (customerId: string, policyId: string) =>
  queryOptions({
    queryKey: ['policy', customerId, policyId] as const,
    queryFn: ({ signal }): Promise<Policy | null> =>
      callApi(getPolicyCall, {
        params: { customerId, policyId },
        signal,
      }).catch((error: unknown) => {
        if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return null;
        // Spec §8: policy failures are logged; the page shows its apiError text.
        console.warn('The policy could not be read');
        throw error;
      }),
  });

export const usePolicyQuery = (customerId: string | undefined, policyId: string | null) =>
  useQuery(
    { ...policyQuery(customerId ?? '', policyId ?? ''), enabled: !!customerId && !!policyId },
    useAppQueryClient(),
  );

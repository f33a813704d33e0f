import { getAgencyWithFallbackCall, type Agency } from '@portal/contracts/policy';
import { callApi } from '../../../lib/api-client';

/** GET {policy}/api/v1/agency/{customerId}/fallback: the agency or the insurer's direct line; null on failure. */
export function fetchAgencyWithFallback(customerId: string, signal?: AbortSignal): Promise<Agency | null> {
  return callApi(getAgencyWithFallbackCall, {
    params: { customerId },
    signal,
  }).catch(() => null);
}

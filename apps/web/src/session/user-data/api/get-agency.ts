import { getAgencyCall, type Agency } from '@portal/contracts/policy';
import { callApi } from '../../../lib/api-client';

/** GET {policy}/api/v1/agency/{customerId}: the customer's own agency, null when none (404) or failed. */
export function fetchAgency(customerId: string, signal?: AbortSignal): Promise<Agency | null> {
  return callApi(getAgencyCall, { params: { customerId }, signal }).catch(() => null);
}

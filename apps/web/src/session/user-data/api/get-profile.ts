import { getProfileCall, type CustomerProfile } from '@portal/contracts/profile';
import { callApi } from '../../../lib/api-client';

/** GET {account}/api/v1/profile/{customerId}. Spec §7: a failure leaves the user data without a profile. */
export function fetchProfile(customerId: string, signal?: AbortSignal): Promise<CustomerProfile | null> {
  return callApi(getProfileCall, { params: { customerId }, signal }).catch(() => null);
}

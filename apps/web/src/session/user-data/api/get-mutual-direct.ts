import { getMutualDirectAgencyCall, type Agency } from '@portal/contracts/policy';
import { callApi } from '../../../lib/api-client';

/** GET {policy}/api/v1/agency/mutual-direct: the insurer's direct line with its opening hours; null on failure. */
export function fetchMutualDirect(signal?: AbortSignal): Promise<Agency | null> {
  return callApi(getMutualDirectAgencyCall, { signal }).catch(() => null);
}

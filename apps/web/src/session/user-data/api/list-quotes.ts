import { listQuotesCall, type Quote } from '@portal/contracts/policy';
import { callApi } from '../../../lib/api-client';

/** GET {policy}/api/v1/quote/{customerId}. Spec §7: null when it fails (the quotes block says so). */
export function fetchQuotes(customerId: string, signal?: AbortSignal): Promise<Quote[] | null> {
  return callApi(listQuotesCall, { params: { customerId }, signal }).catch(() => null);
}

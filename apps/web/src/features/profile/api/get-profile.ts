import { getProfileCall } from '@portal/contracts/profile';
import { callApi, isAbortError } from '../../../lib/api-client';
import { currentPath } from '../../../lib/app-navigation';
import { sessionKeys, writeSession } from '../../../session/storage-keys';

/**
 * GET {account}/api/v1/profile/{customerId} for the password details: the failure is handed back (its
 * status decides the text), and the page is remembered so that signing in again returns to it (spec
 * customer-data §8, "Security details failure stores the current path for redirect").
 */
export async function fetchProfileForPassword(customerId: string, signal?: AbortSignal) {
  try {
    return await callApi(getProfileCall, { params: { customerId }, signal });
  } catch (error) {
    if (!isAbortError(error) && !signal?.aborted) writeSession(sessionKeys.redirectAfterLogin, currentPath());
    throw error;
  }
}

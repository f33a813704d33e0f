import { endCurrentSessionCall } from '@portal/contracts/session';
import { ApiError, callApi } from '../../lib/api-client';

/**
 * Ends the identity provider's browser session (and the refresh tokens issued in it). The session cookie
 * belongs to the provider's origin, so credentials are included. A 404 means there was none: fine.
 */
export async function endProviderSession(): Promise<void> {
  try {
    await callApi(endCurrentSessionCall, { credentials: 'include' });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return;
    throw error;
  }
}

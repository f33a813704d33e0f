import { recoveryUnlockCall, type AuthnTransaction } from '@portal/contracts/identity';
import { callApi } from '../../../lib/api-client';

/**
 * Self-service unlock: POST {orgUrl}/api/v1/authn/recovery/unlock {username, factorType: 'EMAIL'}. The
 * same RECOVERY_CHALLENGE answer for every username; an unlock link is emailed only to a locked account.
 */
export function requestUnlockEmail(username: string): Promise<AuthnTransaction> {
  return callApi(recoveryUnlockCall, { body: { username, factorType: 'EMAIL' } });
}

import { recoveryTokenCall, type AuthnTransaction } from '@portal/contracts/identity';
import { callApi } from '../../../lib/api-client';

/**
 * The unlock link's token: POST {orgUrl}/api/v1/authn/recovery/token {recoveryToken}. Answers
 * UNAUTHENTICATED with recoveryType UNLOCK once the account is unlocked; 403 E0000105 for a bad link.
 */
export function redeemUnlockToken(recoveryToken: string): Promise<AuthnTransaction> {
  return callApi(recoveryTokenCall, { body: { recoveryToken } });
}

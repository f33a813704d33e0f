import { recoveryTokenCall, type AuthnTransaction } from '@portal/contracts/identity';
import { callApi } from '../../../lib/api-client';

/** Recovery link: POST {orgUrl}/api/v1/authn/recovery/token {recoveryToken}. */
export function exchangeRecoveryToken(recoveryToken: string): Promise<AuthnTransaction> {
  return callApi(recoveryTokenCall, { body: { recoveryToken } });
}

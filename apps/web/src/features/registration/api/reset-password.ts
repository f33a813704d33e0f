import { resetPasswordCall, type AuthnTransaction } from '@portal/contracts/identity';
import { callApi } from '../../../lib/api-client';

/** POST /api/v1/authn/credentials/reset_password {stateToken, newPassword}. */
export function setNewPassword(stateToken: string, newPassword: string): Promise<AuthnTransaction> {
  return callApi(resetPasswordCall, { body: { stateToken, newPassword } });
}

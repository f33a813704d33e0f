import { authnCall, type AuthnTransaction } from '@portal/contracts/identity';
import { callApi } from '../../../lib/api-client';

/** Activation link: POST {orgUrl}/api/v1/authn {token}, answering the PASSWORD_RESET transaction. */
export function exchangeActivationToken(token: string): Promise<AuthnTransaction> {
  return callApi(authnCall, { body: { token } });
}

import { previousCall } from '@portal/contracts/identity';
import { callApi } from '../../lib/api-client';
import type { AuthnAnswer } from './authn-answer';

/** Back from MFA_CHALLENGE to MFA_REQUIRED (to choose the other factor). */
export function previousStep(stateToken: string): Promise<AuthnAnswer> {
  return callApi(previousCall, { body: { stateToken } });
}

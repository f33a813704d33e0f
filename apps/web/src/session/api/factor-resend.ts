import { factorResendCall } from '@portal/contracts/identity';
import { callApi } from '../../lib/api-client';
import { widened, type AuthnAnswer } from './authn-answer';

const factorResend = widened(factorResendCall);

/** Sends a new code by the same factor; the previous code stops working. */
export function resendFactorCode(factorId: string, stateToken: string): Promise<AuthnAnswer> {
  return callApi(factorResend, { params: { factorId }, body: { stateToken } });
}

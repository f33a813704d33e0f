import { factorVerifyCall } from '@portal/contracts/identity';
import { callApi } from '../../lib/api-client';
import { widened, type AuthnAnswer } from './authn-answer';

const factorVerify = widened(factorVerifyCall);

/** Asks the provider to send a code by the factor (text or call): answers MFA_CHALLENGE. */
export function sendFactorCode(factorId: string, stateToken: string): Promise<AuthnAnswer> {
  return callApi(factorVerify, { params: { factorId }, body: { stateToken } });
}

/** Checks a code: SUCCESS with a one-time sessionToken, or a 403 wrongCode failure. */
export function verifyFactorCode(
  factorId: string,
  stateToken: string,
  passCode: string,
): Promise<AuthnAnswer> {
  return callApi(factorVerify, { params: { factorId }, body: { stateToken, passCode } });
}

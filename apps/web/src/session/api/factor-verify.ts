import { factorVerifyCall } from '@portal/contracts/identity';
import { callApi } from '../../lib/api-client';
import { widened, type AuthnAnswer } from './authn-answer';

const factorVerify = widened(factorVerifyCall);

/** Asks the provider to send a code by the factor (text or call), or a passkey's challenge: MFA_CHALLENGE. */
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

/** A passkey's assertion over the challenge of MFA_CHALLENGE, in Okta's names (base64url). */
export interface PasskeyAssertionFields {
  clientData: string;
  authenticatorData: string;
  signatureData: string;
  credentialId: string;
}

/** Answers a passkey factor's challenge: SUCCESS with a one-time sessionToken, or a 403 wrongCode failure. */
export function verifyFactorAssertion(
  factorId: string,
  stateToken: string,
  assertion: PasskeyAssertionFields,
): Promise<AuthnAnswer> {
  return callApi(factorVerify, { params: { factorId }, body: { stateToken, ...assertion } });
}

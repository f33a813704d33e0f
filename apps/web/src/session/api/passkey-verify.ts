import { passkeySignInCall, type PasskeyAuthenticationResponse } from '@portal/contracts/passkeys';
import { callApi } from '../../lib/api-client';
import { widened, type AuthnAnswer } from './authn-answer';

const passkeyVerify = widened(passkeySignInCall);

/** POST /api/v1/authn/passkey/verify: the browser's assertion; SUCCESS with a sessionToken, or 401. */
export function verifyPasskeySignIn(credential: PasskeyAuthenticationResponse): Promise<AuthnAnswer> {
  return callApi(passkeyVerify, { body: { credential } });
}

import { passkeySignInOptionsCall } from '@portal/contracts/passkeys';
import { callApi } from '../../lib/api-client';

/** POST /api/v1/authn/passkey/options: a challenge for signing in with a passkey alone (no allowCredentials). */
export const passkeySignInOptions = () => callApi(passkeySignInOptionsCall, {});

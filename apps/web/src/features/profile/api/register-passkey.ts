import { registerPasskeyCall, type PasskeyRegistrationResponse } from '@portal/contracts/passkeys';
import { callApi } from '../../../lib/api-client';

/** POST {portal}/api/v1/sign-in-methods/{customerId}/passkeys: the browser's new passkey, with its name. */
export const registerPasskey = (customerId: string, name: string, credential: PasskeyRegistrationResponse) =>
  callApi(registerPasskeyCall, { params: { customerId }, body: { name, credential } });

import { passkeyOptionsCall } from '@portal/contracts/passkeys';
import { callApi } from '../../../lib/api-client';

/** POST {portal}/api/v1/sign-in-methods/{customerId}/passkeys/options: what the browser needs to make one. */
export const fetchPasskeyOptions = (customerId: string) =>
  callApi(passkeyOptionsCall, { params: { customerId } });

import { renamePasskeyCall } from '@portal/contracts/passkeys';
import { callApi } from '../../../lib/api-client';

/** PATCH {portal}/api/v1/sign-in-methods/{customerId}/passkeys/{factorId}: a new name. */
export const renamePasskey = (customerId: string, factorId: string, name: string) =>
  callApi(renamePasskeyCall, { params: { customerId, factorId }, body: { name } });

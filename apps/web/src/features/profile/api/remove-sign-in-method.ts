import { removeSignInMethodCall } from '@portal/contracts/sign-in-methods';
import { callApi } from '../../../lib/api-client';

/** DELETE {portal}/api/v1/sign-in-methods/{customerId}/{factorId}: the app or the backup codes. */
export const removeSignInMethod = (customerId: string, factorId: string) =>
  callApi(removeSignInMethodCall, { params: { customerId, factorId } });

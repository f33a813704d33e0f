import { confirmPasswordCall } from '@portal/contracts/sign-in-methods';
import { callApi } from '../../../lib/api-client';

/** POST {portal}/api/v1/sign-in-methods/{customerId}/confirm-password: lets this session change methods. */
export const confirmPassword = (customerId: string, password: string) =>
  callApi(confirmPasswordCall, { params: { customerId }, body: { password } });

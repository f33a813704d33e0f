import { changePasswordCall, type ChangePasswordBody } from '@portal/contracts/portal';
import { ApiError, callApi } from '../../../lib/api-client';

/** POST {portal}/api/v1/password/{customerId}/change. */
export const changePassword = (customerId: string, body: ChangePasswordBody) =>
  callApi(changePasswordCall, { params: { customerId, action: 'change' }, body });

/** The spec's error code of a failed change (1 code, 2 current password, 3 new password), else 4. */
export function passwordErrorCode(error: unknown): 1 | 2 | 3 | 4 {
  if (
    error instanceof ApiError &&
    error.body &&
    typeof error.body === 'object' &&
    'errorCode' in error.body
  ) {
    const code = (error.body as { errorCode: unknown }).errorCode;
    if (code === 1 || code === 2 || code === 3) return code;
  }
  return 4;
}

import {
  changePasswordCall,
  requestProfileCodeCall,
  type ChangePasswordBody,
} from '@portal/contracts/portal';
import { getMfaDisplayNameCall, getProfileCall, type MfaMethod } from '@portal/contracts/profile';
import { ApiError, callApi } from '../../../lib/api-client';

/** GET {account}/api/v1/profile/{customerId}: the failure is handed back, its status decides the text. */
export const fetchProfileForPassword = (customerId: string, signal?: AbortSignal) =>
  callApi(getProfileCall, { params: { customerId }, signal, handleError: () => undefined });

/** GET {account}/api/v1/mfa/{customerId}/{method}: the masked number, or null when there is no such factor. */
export const fetchFactorName = (customerId: string, method: MfaMethod, signal?: AbortSignal) =>
  callApi(getMfaDisplayNameCall, {
    params: { customerId, method },
    signal,
    handleError: () => undefined,
  }).then(
    (answer) => answer.displayName,
    (error: unknown) => {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    },
  );

/** POST {portal}/api/v1/mfa/{customerId}/{method}: sends the code; answers how many digits it has. */
export const requestPasswordCode = (customerId: string, method: MfaMethod) =>
  callApi(requestProfileCodeCall, { params: { customerId, method }, handleError: () => undefined });

/** POST {portal}/api/v1/password/{customerId}/change. */
export const changePassword = (customerId: string, body: ChangePasswordBody) =>
  callApi(changePasswordCall, {
    params: { customerId, action: 'change' },
    body,
    handleError: () => undefined,
  });

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

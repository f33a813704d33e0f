import { getMfaDisplayNameCall, type MfaMethod } from '@portal/contracts/profile';
import { ApiError, callApi } from '../../../lib/api-client';

/** GET {account}/api/v1/mfa/{customerId}/{method}: the masked number, or null when there is no such factor. */
export const fetchFactorName = (customerId: string, method: MfaMethod, signal?: AbortSignal) =>
  callApi(getMfaDisplayNameCall, { params: { customerId, method }, signal }).then(
    (answer) => answer.displayName,
    (error: unknown) => {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    },
  );

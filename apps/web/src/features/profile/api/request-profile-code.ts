import { requestProfileCodeCall } from '@portal/contracts/portal';
import type { MfaMethod } from '@portal/contracts/profile';
import { callApi } from '../../../lib/api-client';

/** POST {portal}/api/v1/mfa/{customerId}/{method}: sends the code; answers how many digits it has. */
export const requestPasswordCode = (customerId: string, method: MfaMethod) =>
  callApi(requestProfileCodeCall, { params: { customerId, method } });

import { endOtherSignInSessionsCall } from '@portal/contracts/sign-in-sessions';
import { callApi } from '../../../lib/api-client';

/** POST {portal}/api/v1/sign-in-sessions/{customerId}/sign-out-others: every session but this one. */
export const endOtherSignInSessions = (customerId: string) =>
  callApi(endOtherSignInSessionsCall, { params: { customerId }, body: {} });

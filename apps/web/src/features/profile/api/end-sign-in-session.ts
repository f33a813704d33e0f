import { endSignInSessionCall } from '@portal/contracts/sign-in-sessions';
import { callApi } from '../../../lib/api-client';

/** DELETE {portal}/api/v1/sign-in-sessions/{customerId}/{sessionId}: signs that session out. */
export const endSignInSession = (customerId: string, sessionId: string) =>
  callApi(endSignInSessionCall, { params: { customerId, sessionId } });

import { listSignInSessionsCall } from '@portal/contracts/sign-in-sessions';
import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** GET {portal}/api/v1/sign-in-sessions/{customerId}: where the customer is signed in, this device marked. */
export const signInSessionsQuery = (customerId: string) =>
  queryOptions({
    queryKey: ['profile', 'sign-in-sessions', customerId],
    queryFn: ({ signal }) =>
      callApi(listSignInSessionsCall, { params: { customerId }, signal }).then((answer) => answer.sessions),
    retry: false,
  });

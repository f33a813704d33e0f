import { listSignInMethodsCall } from '@portal/contracts/sign-in-methods';
import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** GET {portal}/api/v1/sign-in-methods/{customerId}: text and call numbers, the app and backup codes. */
export const signInMethodsQuery = (customerId: string) =>
  queryOptions({
    queryKey: ['profile', 'sign-in-methods', customerId],
    queryFn: ({ signal }) =>
      callApi(listSignInMethodsCall, { params: { customerId }, signal }).then((answer) => answer.methods),
    retry: false,
  });

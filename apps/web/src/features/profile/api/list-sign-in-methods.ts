import { listSignInMethodsCall } from '@portal/contracts/sign-in-methods';
import { callApi } from '../../../lib/api-client';

/** GET {portal}/api/v1/sign-in-methods/{customerId}: the customer's ways of signing in after the password. */
export const fetchSignInMethods = (customerId: string, signal?: AbortSignal) =>
  callApi(listSignInMethodsCall, { params: { customerId }, signal }).then((answer) => answer.methods);

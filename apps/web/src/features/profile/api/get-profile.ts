import { getProfileCall } from '@portal/contracts/profile';
import { callApi } from '../../../lib/api-client';

/** GET {account}/api/v1/profile/{customerId}: the failure is handed back, its status decides the text. */
export const fetchProfileForPassword = (customerId: string, signal?: AbortSignal) =>
  callApi(getProfileCall, { params: { customerId }, signal });

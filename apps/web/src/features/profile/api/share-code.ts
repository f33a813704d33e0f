import { createShareCodeCall } from '@portal/contracts/screen-share';
import { callApi } from '../../../lib/api-client';

/** POST {portal}/api/v1/screen-share/{customerId}/code: a one-time code for the contact centre's view. */
export const createShareCode = (customerId: string) =>
  callApi(createShareCodeCall, { params: { customerId }, body: {} });

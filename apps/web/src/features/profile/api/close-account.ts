import { closeAccountCall } from '@portal/contracts/contact-changes';
import { callApi } from '../../../lib/api-client';

/** POST {portal}/api/v1/online-account/{customerId}/close: the code from portal.mfaCode closes the account. */
export const closeOnlineAccount = (customerId: string, passCode: string) =>
  callApi(closeAccountCall, { params: { customerId }, body: { passCode } });

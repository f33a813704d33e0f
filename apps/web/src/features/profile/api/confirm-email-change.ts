import { confirmEmailChangeCall } from '@portal/contracts/contact-changes';
import { callApi } from '../../../lib/api-client';

/** POST {portal}/api/v1/contact-details/{customerId}/email/confirm: the code from the new address. */
export const confirmEmailChange = (customerId: string, passCode: string) =>
  callApi(confirmEmailChangeCall, { params: { customerId }, body: { passCode } });

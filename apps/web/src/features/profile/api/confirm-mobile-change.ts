import { confirmMobileChangeCall } from '@portal/contracts/contact-changes';
import { callApi } from '../../../lib/api-client';

/** POST {portal}/api/v1/contact-details/{customerId}/mobile/confirm: the code texted to the new number. */
export const confirmMobileChange = (customerId: string, passCode: string) =>
  callApi(confirmMobileChangeCall, { params: { customerId }, body: { passCode } });

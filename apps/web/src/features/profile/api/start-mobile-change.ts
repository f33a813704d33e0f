import { startMobileChangeCall } from '@portal/contracts/contact-changes';
import { callApi } from '../../../lib/api-client';

/** POST {portal}/api/v1/contact-details/{customerId}/mobile: texts a code to the new number. */
export const startMobileChange = (customerId: string, mobileNumber: string) =>
  callApi(startMobileChangeCall, { params: { customerId }, body: { mobileNumber } });

import { startEmailChangeCall, type StartEmailChangeBody } from '@portal/contracts/contact-changes';
import { callApi } from '../../../lib/api-client';

/** POST {portal}/api/v1/contact-details/{customerId}/email: sends a code to the new address. */
export const startEmailChange = (customerId: string, body: StartEmailChangeBody) =>
  callApi(startEmailChangeCall, { params: { customerId }, body });

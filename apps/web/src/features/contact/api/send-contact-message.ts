import { sendContactMessageCall, type ContactMessage } from '@portal/contracts/contact';
import { callApi } from '../../../lib/api-client';

/** POST {account}/api/v1/messaging/contact/{customerId}. Failures are handed back: the form shows errorHtml. */
export function sendContactMessage(customerId: string, message: ContactMessage) {
  return callApi(sendContactMessageCall, {
    params: { customerId },
    body: message,
  });
}

import { passkeyOfferCall } from '@portal/contracts/passkey-offer';
import { callApi } from '../../lib/api-client';

/** How long the sign-in's last step waits for the answer before going on without the offer. */
const OFFER_CHECK_MS = 2_000;

/**
 * GET {portal}/api/v1/sign-in-methods/{customerId}/passkeys/offer: whether the offer to set up a passkey
 * is due (a new account, or 30 days after "not now"). The caller has already asked whether this device
 * can make one. Any failure or a slow answer: not due, and the customer goes on.
 */
export async function passkeyOfferDue(customerId: string): Promise<boolean> {
  try {
    const answer = await callApi(passkeyOfferCall, {
      params: { customerId },
      signal: AbortSignal.timeout(OFFER_CHECK_MS),
    });
    return answer.due;
  } catch {
    return false;
  }
}

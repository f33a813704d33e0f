import { declinePasskeyOfferCall } from '@portal/contracts/passkey-offer';
import { callApi } from '../../../lib/api-client';

/** POST {portal}/api/v1/sign-in-methods/{customerId}/passkeys/offer/decline: "not now", for 30 days. */
export const declinePasskeyOffer = (customerId: string) =>
  callApi(declinePasskeyOfferCall, { params: { customerId } });

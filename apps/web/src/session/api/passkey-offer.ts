import { passkeyOfferCall } from '@portal/contracts/passkey-offer';
import { callApi } from '../../lib/api-client';

/** How long the sign-in's last step waits for the answer before going on without the offer. */
const OFFER_CHECK_MS = 2_000;

/**
 * Whether to show the offer to set up a passkey as the sign-in's last step (issue 25 point 5): only where
 * this device can make one with its own lock (fingerprint, face or PIN: a platform authenticator), and
 * when GET {portal}/api/v1/sign-in-methods/{customerId}/passkeys/offer says it is due (a new account, or 30
 * days after "not now"). Any failure or a slow answer: no offer, the customer goes on.
 */
export async function passkeyOfferDue(customerId: string): Promise<boolean> {
  try {
    // The browser's own question (what @simplewebauthn/browser's platformAuthenticatorIsAvailable asks),
    // asked directly: every sign-in passes here, and most devices need nothing more loaded.
    const available = await globalThis.PublicKeyCredential?.isUserVerifyingPlatformAuthenticatorAvailable?.();
    if (available !== true) return false;
    const answer = await callApi(passkeyOfferCall, {
      params: { customerId },
      signal: AbortSignal.timeout(OFFER_CHECK_MS),
    });
    return answer.due;
  } catch {
    return false;
  }
}

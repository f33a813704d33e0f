import { z } from 'zod/mini';
import { defineCall, named } from './call';
import { customerCallErrors, customerIdValue, emptyBody, isoDateTime } from './common';

/*
 * Apart from passkeys.ts so that the sign-in's last step (the account page, on every sign-in) reads the
 * offer without loading the passkey ceremony's schemas.
 */
/**
 * The offer to set up a passkey after registration (issue 25): due once a new account's first code was
 * accepted (within PASSKEY_OFFER_AFTER_REGISTRATION_HOURS of its activation) while the customer has no
 * passkey; after a "not now", not again for PASSKEY_OFFER_QUIET_DAYS, then once more at a sign-in.
 */
export const PASSKEY_OFFER_AFTER_REGISTRATION_HOURS = 24;
export const PASSKEY_OFFER_QUIET_DAYS = 30;

export const passkeyOffer = named(
  z.object({
    due: z.boolean(),
    /** After a "not now": the first time the offer may come back. */
    notBefore: z.optional(isoDateTime),
  }),
  'PasskeyOffer',
);
export type PasskeyOffer = z.infer<typeof passkeyOffer>;

export const passkeyOfferCall = defineCall({
  id: 'portal.passkeyOffer',
  summary:
    'Whether to offer setting up a passkey now: a new account with no passkey, or PASSKEY_OFFER_QUIET_DAYS after the last "not now". Reading it changes nothing.',
  service: 'portal',
  method: 'GET',
  path: '/api/v1/sign-in-methods/:customerId/passkeys/offer',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue }),
  responses: { 200: passkeyOffer, ...customerCallErrors },
});

export const declinePasskeyOfferCall = defineCall({
  id: 'portal.passkeyOfferDecline',
  summary:
    'The customer\'s "not now" to the passkey offer: it is not due again for PASSKEY_OFFER_QUIET_DAYS. Takes no body.',
  service: 'portal',
  method: 'POST',
  path: '/api/v1/sign-in-methods/:customerId/passkeys/offer/decline',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue }),
  body: emptyBody,
  responses: { 200: passkeyOffer, ...customerCallErrors },
});

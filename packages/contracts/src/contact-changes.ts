import { z } from 'zod/mini';
import { defineCall, errorEnvelope, named } from './call';
import { customerCallErrors, customerIdValue, isoDateTime } from './common';
import { emailInput } from './fields';

/**
 * The customer's own changes to how we reach them and to their online account (issue 26, decision 026):
 * a new email address or mobile number, each confirmed with a 6-digit code sent to the NEW address or
 * number, and closing the online account with a code from portal.mfaCode. Served by the portal service
 * with the customer's bearer token. Each change needs a recent sign-in or password confirmation (403
 * REAUTHENTICATION_REQUIRED, as sign-in-methods.ts explains); the SPA asks for the password and repeats it.
 *
 * Sending a code answers the same whether or not the new email address is another account's (no account
 * enumeration): that address gets a notice instead of a code, and no code can then confirm the change.
 */

/** A code went to the new address or number. */
export const contactCodeSent = named(
  z.object({
    sent: z.literal(true),
    /** When the code stops working. */
    expiresAt: isoDateTime,
    codeLength: z.literal(6),
  }),
  'ContactCodeSent',
);
export type ContactCodeSent = z.infer<typeof contactCodeSent>;

/** The errors of sending a code: 403 (step-up), 429 (too soon, too many, locked), 503 (not delivered). */
const sendErrors = { ...customerCallErrors, 403: errorEnvelope, 429: errorEnvelope, 503: errorEnvelope };

/** Six digits, as typed (the server answers 400 MFA_CODE_INVALID for anything else, like a wrong code). */
const passCode = z.string().check(z.minLength(1, 'Enter the code'), z.maxLength(20));
export const contactCodeBody = z.strictObject({ passCode });

export const startEmailChangeBody = z.strictObject({
  /** The new address, checked like registration's; kept in lower case. */
  emailAddress: emailInput,
  /** The same address typed again; must match (400 with a field error otherwise). */
  confirmEmailAddress: z.string().check(z.maxLength(320)),
});
export type StartEmailChangeBody = z.infer<typeof startEmailChangeBody>;

export const startEmailChangeCall = defineCall({
  id: 'portal.emailChangeStart',
  summary:
    'Sends a 6-digit code to the new email address (5 minutes; the send limits of other codes). 400 with fieldErrors for an address that is not valid, the two not matching, or the current address. An address another account uses gets the same 200 (that address is told someone tried to use it; no code can then confirm). 403 REAUTHENTICATION_REQUIRED; 429 with Retry-After; 503 with Retry-After when the email could not be sent.',
  service: 'portal',
  method: 'POST',
  path: '/api/v1/contact-details/:customerId/email',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue }),
  body: startEmailChangeBody,
  responses: { 200: contactCodeSent, ...sendErrors },
});

export const emailChanged = named(z.object({ emailAddress: z.string() }), 'EmailChanged');

export const confirmEmailChangeCall = defineCall({
  id: 'portal.emailChangeConfirm',
  summary:
    "With the code sent to the new address: the sign-in email and the customer record's email become it, together; the old address is told. 400 MFA_CODE_INVALID for a wrong, expired or used code (it counts towards the lockout); 409 EMAIL_IN_USE when another account took the address meanwhile; 403 REAUTHENTICATION_REQUIRED; 429 while the account is locked.",
  service: 'portal',
  method: 'POST',
  path: '/api/v1/contact-details/:customerId/email/confirm',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue }),
  body: contactCodeBody,
  responses: {
    200: emailChanged,
    ...customerCallErrors,
    403: errorEnvelope,
    409: errorEnvelope,
    429: errorEnvelope,
  },
});

export const startMobileChangeBody = z.strictObject({
  /** A UK mobile number (07 and nine more digits; spaces, +44 allowed). */
  mobileNumber: z.string().check(z.minLength(1, 'Enter a mobile number'), z.maxLength(20)),
});
export type StartMobileChangeBody = z.infer<typeof startMobileChangeBody>;

export const startMobileChangeCall = defineCall({
  id: 'portal.mobileChangeStart',
  summary:
    'Sends a 6-digit code by text to the new mobile number (5 minutes; the send limits of other codes). 400 with fieldErrors for a number that is not a UK mobile or is the current one. 403 REAUTHENTICATION_REQUIRED; 429 with Retry-After; 503 with Retry-After when the text could not be sent. A customer without a mobile adds one this way.',
  service: 'portal',
  method: 'POST',
  path: '/api/v1/contact-details/:customerId/mobile',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue }),
  body: startMobileChangeBody,
  responses: { 200: contactCodeSent, ...sendErrors },
});

export const mobileChanged = named(z.object({ mobileNumber: z.string() }), 'MobileChanged');

export const confirmMobileChangeCall = defineCall({
  id: 'portal.mobileChangeConfirm',
  summary:
    "With the code texted to the new number: the customer record's mobile and the text-message sign-in method move to it (created when there was none); the old number is told by text. 400 MFA_CODE_INVALID for a wrong, expired or used code (it counts towards the lockout); 403 REAUTHENTICATION_REQUIRED; 429 while the account is locked.",
  service: 'portal',
  method: 'POST',
  path: '/api/v1/contact-details/:customerId/mobile/confirm',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue }),
  body: contactCodeBody,
  responses: { 200: mobileChanged, ...customerCallErrors, 403: errorEnvelope, 429: errorEnvelope },
});

export const accountClosed = named(z.object({ closed: z.literal(true) }), 'OnlineAccountClosed');

export const closeAccountCall = defineCall({
  id: 'portal.closeAccount',
  summary:
    'Closes the online account with the code from portal.mfaCode (text or call): the password, every sign-in method, session, grant and token go; the customer record, policies, documents and audit trail stay, and the customer may register again. Emails a confirmation. 400 MFA_CODE_INVALID for a wrong, expired or used code (it counts towards the lockout); 403 REAUTHENTICATION_REQUIRED; 429 while the account is locked.',
  service: 'portal',
  method: 'POST',
  path: '/api/v1/online-account/:customerId/close',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue }),
  body: contactCodeBody,
  responses: { 200: accountClosed, ...customerCallErrors, 403: errorEnvelope, 429: errorEnvelope },
});

import { z } from 'zod/mini';
import { defineCall, errorEnvelope, named } from './call';
import { customerCallErrors, customerIdValue, emptyBody, isoDateTime } from './common';
import { mfaMethod } from './profile';

/**
 * Portal service: the password change from the profile pages, guarded by a one-time code (spec
 * customer-data §2 "Password details", §4 "Password change modal", §8). Step one asks for a code by
 * text or voice call (or, for a customer with an authenticator app, asks for nothing); step two sends the
 * code with the current and new passwords.
 */

/** POST /mfa/:customerId/:method — the spec marks the answer "not shown"; this is ours. */
export const profileCodeSent = named(
  z.object({
    sent: z.literal(true),
    /** When the code stops working. */
    expiresAt: isoDateTime,
    /** Boxes to show: 6 for a text or a call to a mobile, 5 for a call to a landline. */
    codeLength: z.union([z.literal(5), z.literal(6)]),
  }),
  'ProfileCodeSent',
);
export type ProfileCodeSent = z.infer<typeof profileCodeSent>;

export const requestProfileCodeCall = defineCall({
  id: 'portal.mfaCode',
  summary:
    "Sends a one-time code for a profile change by text (sms) or voice call (call) to the customer's number. Takes no body. 404 when the customer has no such factor or the customer id is not the token's; 429 with Retry-After when codes are asked for too often.",
  service: 'portal',
  method: 'POST',
  path: '/api/v1/mfa/:customerId/:method',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue, method: mfaMethod }),
  body: emptyBody,
  responses: { 200: profileCodeSent, ...customerCallErrors, 429: errorEnvelope },
});

/** The password actions the portal knows; the spec names the segment `{action}` and shows only a change. */
export const passwordActions = ['change'] as const;
export const passwordAction = z.enum(passwordActions);

/**
 * Shape checks only. The new-password rules (minimum length and character classes from site settings,
 * no whitespace) are the server's to apply, so that a breach answers with errorCode 3 like any other
 * rule rather than with a bare 400.
 */
export const changePasswordBody = z.strictObject({
  /** 6 digits (5 for a code spoken to a landline); the app's 6-digit code when `codeFrom` is `app`. */
  mfaPassCode: z.string().check(z.regex(/^\d{5,6}$/, 'Enter the 5 or 6 digit code')),
  /**
   * Where the code comes from: `sent` (the default) is the code of portal.mfaCode, by text or call;
   * `app` is the code the customer's authenticator app shows now (nothing is sent first).
   */
  codeFrom: z.optional(z.enum(['sent', 'app'])),
  currentPassword: z.string().check(z.minLength(1, 'Enter your current password'), z.maxLength(256)),
  newPassword: z.string().check(z.minLength(1, 'Enter a new password'), z.maxLength(256)),
});
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;

export const passwordChanged = named(z.object({ passwordLastUpdated: isoDateTime }), 'PasswordChanged');
export type PasswordChanged = z.infer<typeof passwordChanged>;

/**
 * The spec's password change error codes (customer-data §8): 1 code error, 2 current password error,
 * 3 password error, anything else generic. `code` is the envelope's text code for each.
 */
export const passwordChangeErrorCodes = {
  /** The one-time code is wrong, expired, already used, never requested, or not 5 or 6 digits. */
  MFA_CODE_INVALID: 1,
  /** The current password is wrong. */
  CURRENT_PASSWORD_INVALID: 2,
  /** The new password breaks a rule (settings, whitespace, same as current). */
  NEW_PASSWORD_INVALID: 3,
  /** Anything else: malformed request, too many attempts. */
  PASSWORD_CHANGE_FAILED: 4,
} as const;
export type PasswordChangeErrorName = keyof typeof passwordChangeErrorCodes;

/** Our envelope plus `errorCode`, so the SPA picks its message without parsing text. */
export const passwordChangeError = named(
  z.extend(errorEnvelope, { errorCode: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]) }),
  'PasswordChangeError',
);
export type PasswordChangeError = z.infer<typeof passwordChangeError>;

export const changePasswordCall = defineCall({
  id: 'portal.password',
  summary:
    "Changes the customer's password, guarded by a one-time code from portal.mfaCode, or with codeFrom 'app' by the code the customer's authenticator app shows (accepted once, one 30-second step of drift either way; the passwords are checked before it, so a refused password leaves it unused). 400 carries errorCode 1 (code, including one that is not 5 or 6 digits, or no app set up; a wrong code counts towards the account's lockout), 2 (current password), 3 (new password rules) or 4 (other); after 1, 2 or 3 the same sent code may be sent again until it is used up by a change or expires. 429 carries errorCode 4 with Retry-After; 404 when the customer id is not the token's.",
  service: 'portal',
  method: 'POST',
  path: '/api/v1/password/:customerId/:action',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue, action: passwordAction }),
  body: changePasswordBody,
  responses: {
    200: passwordChanged,
    400: passwordChangeError,
    401: errorEnvelope,
    404: errorEnvelope,
    429: passwordChangeError,
  },
});

import { z } from 'zod/mini';
import { defineCall, errorEnvelope, named } from './call';
import { customerCallErrors, customerIdValue, emptyBody, isoDateTime } from './common';

/**
 * The profile's "sign-in and security" area: the customer's ways of proving it is them after the
 * password (text, call, authenticator app, backup codes), and setting up or removing the app and the
 * backup codes. Served by the portal service with the customer's bearer token.
 */

/**
 * Adding or removing a way to sign in, and creating backup codes, need a recent proof that it is the
 * customer at the keyboard, not only a bearer token (GitHub's "sudo mode", NIST SP 800-63B §4.2.3's
 * re-authentication): a sign-in of this session, or the password confirmed for it, within
 * REAUTHENTICATION_MINUTES. Without one, those calls answer 403 with this code; the SPA asks for the
 * password (portal.confirmPassword) and repeats the call.
 */
export const REAUTHENTICATION_REQUIRED = 'REAUTHENTICATION_REQUIRED';
export const REAUTHENTICATION_MINUTES = 10;

/** The customer's password, checked again before a sign-in method changes. */
export const confirmPasswordCall = defineCall({
  id: 'portal.confirmPassword',
  summary:
    "Checks the customer's password again; for REAUTHENTICATION_MINUTES after, this session (the token's sign-in) may add or remove sign-in methods and create backup codes. 400 PASSWORD_INVALID for a wrong password (it counts towards the account's lockout; a locked account answers the same).",
  service: 'portal',
  method: 'POST',
  path: '/api/v1/sign-in-methods/:customerId/confirm-password',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue }),
  body: z.strictObject({
    password: z.string().check(z.minLength(1, 'Enter your password'), z.maxLength(200)),
  }),
  responses: {
    200: named(z.object({ confirmedUntil: isoDateTime }), 'PasswordConfirmed'),
    ...customerCallErrors,
  },
});

const factorId = z.string().check(z.regex(/^[A-Za-z0-9]{1,40}$/, 'Not a sign-in method id'));

export const signInMethod = named(
  z.object({
    id: z.string(),
    type: z.enum(['sms', 'call', 'totp', 'backup_codes']),
    /** An app counts once its first code has been accepted; until then it is PENDING_ACTIVATION. */
    status: z.enum(['PENDING_ACTIVATION', 'ACTIVE']),
    /** Text and call: the number, masked to its last 3 digits. App and backup codes: their name. */
    label: z.string(),
    addedAt: z.optional(isoDateTime),
    lastUsedAt: z.optional(z.nullable(isoDateTime)),
    /** backup_codes: unused codes left. */
    codesLeft: z.optional(z.number().check(z.int(), z.minimum(0))),
  }),
  'SignInMethod',
);
export type SignInMethod = z.infer<typeof signInMethod>;

export const signInMethods = named(z.object({ methods: z.array(signInMethod) }), 'SignInMethods');

export const listSignInMethodsCall = defineCall({
  id: 'portal.signInMethods',
  summary:
    "The customer's sign-in methods after the password: text and call numbers (masked), the authenticator app and backup codes. 404 when the customer id is not the token's.",
  service: 'portal',
  method: 'GET',
  path: '/api/v1/sign-in-methods/:customerId',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue }),
  responses: { 200: signInMethods, ...customerCallErrors },
});

/** The key, shown once: the SPA draws the QR code from otpauthUri locally and shows `key` for typing. */
export const totpEnrolment = named(
  z.object({
    id: z.string(),
    status: z.literal('PENDING_ACTIVATION'),
    /** The shared secret in base32, for typing into the app. */
    key: z.string(),
    /** otpauth://totp/...: what the QR code carries (SHA1, 6 digits, 30 seconds). */
    otpauthUri: z.string(),
  }),
  'TotpEnrolment',
);
export type TotpEnrolment = z.infer<typeof totpEnrolment>;

export const enrolTotpCall = defineCall({
  id: 'portal.totpEnrol',
  summary:
    'Starts setting up an authenticator app: a new key (base32) and its otpauth:// URI, PENDING_ACTIVATION until portal.totpActivate accepts a first code. An app set up before keeps working until the new one is activated, which replaces it (one app per customer); an unconfirmed earlier set-up is dropped. Takes no body.',
  service: 'portal',
  method: 'POST',
  path: '/api/v1/sign-in-methods/:customerId/totp',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue }),
  body: emptyBody,
  responses: { 200: totpEnrolment, ...customerCallErrors, 403: errorEnvelope },
});

export const activateTotpCall = defineCall({
  id: 'portal.totpActivate',
  summary:
    "Confirms the app with its first code: the method becomes ACTIVE and an email tells the customer. 400 MFA_CODE_INVALID for a wrong code (it counts towards the account's lockout); 404 for another customer's or an unknown id; 429 with Retry-After while the account is locked.",
  service: 'portal',
  method: 'POST',
  path: '/api/v1/sign-in-methods/:customerId/totp/:factorId/activate',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue, factorId }),
  body: z.strictObject({ passCode: z.string().check(z.minLength(1, 'Enter the code'), z.maxLength(20)) }),
  responses: { 200: signInMethod, ...customerCallErrors, 429: errorEnvelope },
});

export const removeSignInMethodCall = defineCall({
  id: 'portal.signInMethodRemove',
  summary:
    'Removes the authenticator app or the backup codes; an email tells the customer. Text and call numbers come from the customer record and cannot be removed here (404).',
  service: 'portal',
  method: 'DELETE',
  path: '/api/v1/sign-in-methods/:customerId/:factorId',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue, factorId }),
  responses: {
    200: named(z.object({ removed: z.literal(true) }), 'SignInMethodRemoved'),
    ...customerCallErrors,
    403: errorEnvelope,
  },
});

export const backupCodes = named(
  z.object({
    id: z.string(),
    /** Ten single-use codes, `xxxx-xxxx`: shown this once, never again. */
    codes: z.array(z.string()),
    createdAt: isoDateTime,
  }),
  'BackupCodes',
);
export type BackupCodes = z.infer<typeof backupCodes>;

export const createBackupCodesCall = defineCall({
  id: 'portal.backupCodes',
  summary:
    'Creates ten new single-use backup codes and answers them, this once; any earlier codes stop working. An email tells the customer. Takes no body.',
  service: 'portal',
  method: 'POST',
  path: '/api/v1/sign-in-methods/:customerId/backup-codes',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue }),
  body: emptyBody,
  responses: { 200: backupCodes, ...customerCallErrors, 403: errorEnvelope },
});

import { z } from 'zod/mini';
import { defineCall, errorEnvelope, named } from './call';
import { dateOfBirthInput, emailInput, policyNumberInput, postcodeInput } from './fields';

/**
 * Registration service: start a registration (matched against customer records), complete it after
 * activation, and ask for a password reset link. Statuses are explained in
 * docs/decisions/003-registration-statuses.md.
 */

export const registrationBody = z.strictObject({
  emailAddress: emailInput,
  /** YYYY-MM-DD, a real date, not in the future (the server checks the future against its clock). */
  dateOfBirth: dateOfBirthInput,
  postCode: postcodeInput,
  /** Only when the previous answer was NEED_MORE_DATA. */
  policyNumber: z.optional(policyNumberInput),
});
export type RegistrationBody = z.input<typeof registrationBody>;

/**
 * OK: an email is on its way (an activation link, or a reminder for an existing account: the two are
 * indistinguishable here). OK_1: the details match a customer but not the email we hold. OK_2: we cannot
 * register these details online (phone us). NEED_MORE_DATA: ask for a policy number and send again.
 * Error: we could not process the request (HTTP 503); the SPA goes to /error, as it does on a network failure.
 */
export const registrationStatuses = ['OK', 'OK_1', 'OK_2', 'NEED_MORE_DATA', 'Error'] as const;
export const registrationStatus = z.enum(registrationStatuses);
export type RegistrationStatus = z.infer<typeof registrationStatus>;

/** The statuses a 200 answer carries: all but Error, which comes with HTTP 503. */
const answeredStatuses = registrationStatuses.filter(
  (s): s is Exclude<RegistrationStatus, 'Error'> => s !== 'Error',
);

export const registrationResult = named(z.object({ status: z.enum(answeredStatuses) }), 'RegistrationResult');
export type RegistrationResult = z.infer<typeof registrationResult>;

/** Our envelope with status Error, for failures the customer can only retry later. */
export const registrationError = named(
  z.extend(errorEnvelope, { status: z.literal('Error') }),
  'RegistrationError',
);

export const startRegistrationCall = defineCall({
  id: 'registration.start',
  summary:
    'Matches email, date of birth and postcode (and policy number when asked for) against customer records. 200 with status OK, OK_1, OK_2 or NEED_MORE_DATA; 400 for malformed fields; 429 with Retry-After above 5 attempts a day per email or the per-address limit; 503 with status Error when it cannot be processed.',
  service: 'registration',
  method: 'POST',
  path: '/Registration',
  auth: false,
  body: registrationBody,
  responses: { 200: registrationResult, 400: errorEnvelope, 429: errorEnvelope, 503: registrationError },
});

export const resetPasswordRequestBody = z.strictObject({
  email: emailInput,
});

/** Always the same, whether or not an account exists for the address. */
export const resetPasswordRequested = named(z.object({ status: z.literal('OK') }), 'ResetPasswordRequested');

export const requestPasswordResetCall = defineCall({
  id: 'registration.resetPassword',
  summary:
    'Emails a password reset link (60 minutes) when an account exists for the address, at most 3 an hour per account. The answer is the same for every address. 429 with Retry-After above the per-address (IP) limit.',
  service: 'registration',
  method: 'POST',
  path: '/Registration/resetPassword',
  auth: false,
  body: resetPasswordRequestBody,
  responses: { 200: resetPasswordRequested, 400: errorEnvelope, 429: errorEnvelope },
});

export const completeRegistrationBody = z.strictObject({
  oktaUserId: z.string().check(z.minLength(1, 'oktaUserId is required'), z.maxLength(64)),
  stateToken: z.string().check(z.minLength(1, 'stateToken is required'), z.maxLength(200)),
});

export const registrationCompleted = named(
  z.object({ status: z.literal('COMPLETED') }),
  'RegistrationCompleted',
);

export const completeRegistrationCall = defineCall({
  id: 'registration.complete',
  summary:
    "Completes a registration after activation: the stateToken of the activation transaction that reached SUCCESS (within its 10 minutes) and its user id. Records the email on the customer record when it held none. Repeating it is harmless. 400 INVALID_STATE_TOKEN when the token is unknown, expired, another user's or not a finished activation.",
  service: 'registration',
  method: 'POST',
  path: '/api/v1/registration/complete',
  auth: false,
  body: completeRegistrationBody,
  responses: { 200: registrationCompleted, 400: errorEnvelope, 429: errorEnvelope },
});

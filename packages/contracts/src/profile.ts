import { z } from 'zod/mini';
import { defineCall, named } from './call';
import { customerCallErrors, customerIdValue, isoDateTime } from './common';

/**
 * Account service: the customer's personal and contact details (spec customer-data §3 Profile) and the
 * display names of their one-time-code factors. Every call needs the customer's bearer token; a
 * customer id other than the token's is 404.
 */

/** DD/MM/YYYY as shown on the personal details block. */
export const dateOfBirthFormatted = z
  .string()
  .check(z.regex(/^(0[1-9]|[12]\d|3[01])\/(0[1-9]|1[0-2])\/\d{4}$/, 'Expected DD/MM/YYYY'));

export const customerProfile = named(
  z.object({
    firstName: z.string(),
    lastName: z.string(),
    dateOfBirthFormatted,
    addressLineOne: z.string(),
    /** '' when the address has no second line. */
    addressLineTwo: z.string(),
    addressLineThree: z.string(),
    town: z.string(),
    county: z.string(),
    postCode: z.string(),
    /** null when the insurer holds no email for the customer. */
    emailAddress: z.nullable(z.string()),
    /** The customer's own numbers, in full: this is their contact details page. null when none held. */
    mobileNumber: z.nullable(z.string()),
    /** null when none held; the SPA hides the landline row then. */
    landlineNumber: z.nullable(z.string()),
    /**
     * When the portal password was last set. null when unknown; the SPA then shows "Unable to retrieve
     * last password update". Shown as passwordLastUpdatedFormatted ('3rd March 2024 2:05pm').
     */
    passwordLastUpdated: z.nullable(isoDateTime),
  }),
  'Profile',
);
export type CustomerProfile = z.infer<typeof customerProfile>;

export const mfaMethods = ['sms', 'call'] as const;
export const mfaMethod = z.enum(mfaMethods);
export type MfaMethod = z.infer<typeof mfaMethod>;

export const mfaMethodParams = z.strictObject({ customerId: customerIdValue, method: mfaMethod });

/**
 * How a factor is named to the customer, e.g. "Mobile ending 123". Never a whole number: a run of more
 * than four digits is refused, so a server bug cannot leak a full phone number through this field.
 */
export const mfaDisplayName = named(
  z.object({
    displayName: z.string().check(
      z.minLength(1),
      z.maxLength(60),
      z.refine((s) => !/\d{5,}/.test(s.replace(/[\s-]/g, '')), 'Must not contain a full phone number'),
    ),
  }),
  'MfaDisplayName',
);
export type MfaDisplayName = z.infer<typeof mfaDisplayName>;

export const getProfileCall = defineCall({
  id: 'profile.get',
  summary:
    "The signed-in customer's personal and contact details and when their password was last updated. 404 when the customer id is not the token's.",
  service: 'account',
  method: 'GET',
  path: '/api/v1/profile/:customerId',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue }),
  responses: { 200: customerProfile, ...customerCallErrors },
});

export const getMfaDisplayNameCall = defineCall({
  id: 'profile.mfaDisplayName',
  summary:
    "Display name (masked number) of the customer's text (sms) or voice call (call) factor. 404 when the customer has no such factor or the customer id is not the token's.",
  service: 'account',
  method: 'GET',
  path: '/api/v1/mfa/:customerId/:method',
  auth: true,
  params: mfaMethodParams,
  responses: { 200: mfaDisplayName, ...customerCallErrors },
});

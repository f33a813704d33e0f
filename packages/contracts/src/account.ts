import { z } from 'zod/mini';
import { defineCall, named } from './call';
import { customerCallErrors, customerParams, emptyBody, isoDateTime } from './common';

/**
 * Account service calls: marketing and correspondence preferences, and the short-lived status token
 * for the `{statusToken}` placeholder of a redirect_url. Every call needs the customer's bearer token
 * and answers 404 when the path's customer id is not the token's.
 */

/**
 * Marketing channels as stored. null means the customer has never answered for that channel: the SPA
 * offers the email/phone/post checkboxes only while none is set, and the first-sign-in step shows
 * while `online` is null ("not asked").
 */
export const marketingPreferences = named(
  z.object({
    email: z.nullable(z.boolean()),
    phone: z.nullable(z.boolean()),
    post: z.nullable(z.boolean()),
    online: z.nullable(z.boolean()),
  }),
  'MarketingPreferences',
);
export type MarketingPreferences = z.infer<typeof marketingPreferences>;

/** The postal address correspondence goes to; at most 7 lines (3 address lines, town, county, postcode, spare). */
export const addressLines = z
  .array(z.string().check(z.trim(), z.minLength(1, 'Enter an address line'), z.maxLength(100)))
  .check(z.maxLength(7));

export const correspondencePreferences = named(
  z.object({
    paperless: z.boolean(),
    /** The customer's postal address on record unless they gave a separate correspondence address. */
    addressLines,
  }),
  'CorrespondencePreferences',
);
export type CorrespondencePreferences = z.infer<typeof correspondencePreferences>;

/**
 * How the customer is told that a new document or message is in their online account (issue 40): by
 * email (always while paperless: `emailRequired`) and, if they choose, by text message to their mobile.
 */
export const noticePreferences = named(
  z.object({
    /** Emailed of new documents and messages (true while paperless, whatever was chosen on paper). */
    email: z.boolean(),
    /** Paperless: the email cannot be turned off (it is how paperless documents are delivered). */
    emailRequired: z.boolean(),
    /** Texted of new documents and messages, to the mobile on record. */
    text: z.boolean(),
    /** That mobile, masked ("+44 XXXX XXX616"); null when none is on record (no texts can be chosen). */
    textTo: z.nullable(z.string()),
  }),
  'NoticePreferences',
);
export type NoticePreferences = z.infer<typeof noticePreferences>;

export const combinedPreferences = named(
  z.object({
    marketingPreferences,
    correspondencePreferences,
    noticePreferences,
  }),
  'CombinedPreferences',
);
export type CombinedPreferences = z.infer<typeof combinedPreferences>;

export const userPreferences = named(
  z.object({
    /** The email on the customer record (null when the insurer holds none). */
    email: z.nullable(z.string()),
    marketingPreferences,
    correspondencePreferences,
    noticePreferences,
    /** True while the first-sign-in preferences step is outstanding (online marketing never answered). */
    registrationJourney: z.boolean(),
  }),
  'UserPreferences',
);
export type UserPreferences = z.infer<typeof userPreferences>;

const marketingUpdate = z
  .partial(
    z.strictObject({
      email: z.boolean(),
      phone: z.boolean(),
      post: z.boolean(),
      online: z.boolean(),
    }),
  )
  .check(z.refine((v) => Object.keys(v).length > 0, { message: 'Choose at least one marketing preference' }));

const correspondenceUpdate = z.strictObject({
  paperless: z.boolean(),
  /** Replaces the stored lines when present (the first-sign-in step sends [] with paperless true). */
  addressLines: z.optional(addressLines),
});

/**
 * A change to how new documents are notified: email (refused as false while paperless) and text (refused
 * as true with no mobile on record).
 */
const noticeUpdate = z
  .partial(z.strictObject({ email: z.boolean(), text: z.boolean() }))
  .check(z.refine((v) => Object.keys(v).length > 0, { message: 'Choose email, text or both' }));

export const updatePreferencesBody = z
  .strictObject({
    marketingPreferences: z.optional(marketingUpdate),
    correspondencePreferences: z.optional(correspondenceUpdate),
    noticePreferences: z.optional(noticeUpdate),
  })
  .check(
    z.refine(
      (v) =>
        v.marketingPreferences !== undefined ||
        v.correspondencePreferences !== undefined ||
        v.noticePreferences !== undefined,
      { message: 'Send marketingPreferences, correspondencePreferences, noticePreferences or a mix' },
    ),
  );
export type UpdatePreferencesBody = z.infer<typeof updatePreferencesBody>;

export const statusTokenResponse = named(
  z.object({
    token: z.string().check(z.minLength(1)),
    /** ISO 8601 instant after which the token is refused. */
    expiresAt: isoDateTime,
  }),
  'StatusToken',
);
export type StatusTokenResponse = z.infer<typeof statusTokenResponse>;

export const getUserPreferencesCall = defineCall({
  id: 'account.preferences.user',
  summary: 'Email, marketing and correspondence preferences of the signed-in customer',
  service: 'account',
  method: 'GET',
  path: '/api/v1/Preferences/:customerId/user',
  auth: true,
  params: customerParams,
  responses: { 200: userPreferences, ...customerCallErrors },
});

export const getMarketingPreferencesCall = defineCall({
  id: 'account.preferences.marketing',
  summary: 'Marketing preferences (email, phone, post, tailored online)',
  service: 'account',
  method: 'GET',
  path: '/api/v1/Preferences/:customerId/marketing',
  auth: true,
  params: customerParams,
  responses: { 200: marketingPreferences, ...customerCallErrors },
});

export const getCorrespondencePreferencesCall = defineCall({
  id: 'account.preferences.correspondence',
  summary: 'Correspondence preference (paperless or paper) and the postal address used',
  service: 'account',
  method: 'GET',
  path: '/api/v1/Preferences/:customerId/correspondence',
  auth: true,
  params: customerParams,
  responses: { 200: correspondencePreferences, ...customerCallErrors },
});

export const updatePreferencesCall = defineCall({
  id: 'account.preferences.update',
  summary: 'Changes marketing and/or correspondence preferences; answers the new combined preferences',
  service: 'account',
  method: 'PATCH',
  path: '/api/v1/Preferences/:customerId',
  auth: true,
  params: customerParams,
  body: updatePreferencesBody,
  responses: { 200: combinedPreferences, ...customerCallErrors },
});

export const statusTokenCall = defineCall({
  id: 'account.statusToken',
  summary: 'A short-lived signed token for the {statusToken} placeholder of a redirect_url',
  service: 'account',
  method: 'POST',
  path: '/api/v1/customers/:customerId/status-token',
  auth: true,
  params: customerParams,
  body: emptyBody,
  responses: { 200: statusTokenResponse, ...customerCallErrors },
});

import { z } from 'zod/mini';
import { defineCall, errorEnvelope, named } from './call';
import { customerCallErrors, customerParams, emptyBody, isoDateTime } from './common';

/*
 * "Share your screen with us" (issue 41 point 6, decision 039). The customer makes a one-time code on
 * their sign-in and security page and reads it to the contact centre; the agent gives it with a reason,
 * and gets a link that opens the customer's portal in a new tab, read only: a customer access token whose
 * on-behalf-of claim names the staff member (`staff:<subject>`), for 30 minutes at most. Every write of
 * that token is refused (403 READ_ONLY_VIEW) but for the two below that belong to the view itself; each
 * page it shows is audited and listed in the customer's account activity; the customer sees it under
 * "Where you're signed in" and can end it there.
 */

/** How long a code lasts, and how long a view lasts at most. */
export const SHARE_CODE_TTL_MINUTES = 10;
export const SHARED_VIEW_MAX_MINUTES = 30;

/** Six digits, as the customer reads them out (spaces allowed between them). */
export const shareCodeInput = z.string().check(
  z.trim(),
  z.overwrite((value) => value.replace(/\s+/g, '')),
  z.regex(/^\d{6}$/, 'Enter the 6-digit code the customer reads out'),
);

export const shareCode = named(
  z.object({
    /** The code, six digits. Shown once: it is kept only as a hash. */
    code: z.string().check(z.regex(/^\d{6}$/)),
    expiresAt: isoDateTime,
  }),
  'ShareCode',
);
export type ShareCode = z.infer<typeof shareCode>;

export const createShareCodeCall = defineCall({
  id: 'portal.shareCode',
  summary:
    'Makes the customer’s one-time code for the contact centre to view their account read only: six digits, valid ten minutes, one use; a new code replaces the last. 429 with Retry-After after too many.',
  service: 'portal',
  method: 'POST',
  path: '/api/v1/screen-share/:customerId/code',
  auth: true,
  params: customerParams,
  body: emptyBody,
  responses: { 201: shareCode, ...customerCallErrors, 403: errorEnvelope, 429: errorEnvelope },
});

/** The one-time ticket in the link the agent opens (URL fragment), exchanged once for the view's token. */
export const sharedViewTicket = z
  .string()
  .check(z.regex(/^[A-Za-z0-9_-]{32,64}$/, 'This link is not one of ours'));

export const sharedViewSession = named(
  z.object({
    /** A bearer access token for the customer's APIs, read only, whose onBehalfOf names the staff member. */
    accessToken: z.string(),
    /** When the token, and the view, end. */
    expiresAt: isoDateTime,
    /** For the banner: "Viewing as Margaret Thompson, read only". */
    customerName: z.string(),
    staffName: z.string(),
  }),
  'SharedViewSession',
);
export type SharedViewSession = z.infer<typeof sharedViewSession>;

export const openSharedViewCall = defineCall({
  id: 'portal.sharedViewOpen',
  summary:
    'Exchanges the one-time ticket of a view link (minutes old, one use) for the read-only token of that view. 401 for a ticket that is unknown, used or expired.',
  service: 'portal',
  method: 'POST',
  path: '/api/v1/screen-share/open',
  auth: false,
  body: z.strictObject({ ticket: sharedViewTicket }),
  responses: {
    200: sharedViewSession,
    400: errorEnvelope,
    401: errorEnvelope,
    429: errorEnvelope,
    503: errorEnvelope,
  },
});

export const sharedViewPageBody = z.strictObject({
  /** The page's address in the portal, without query or fragment. */
  path: z.string().check(z.regex(/^\/[A-Za-z0-9/_-]{0,200}$/, 'Not a page of the portal')),
  /** The page's title as every customer sees it (content's meta.title). */
  title: z.string().check(z.trim(), z.minLength(1), z.maxLength(120)),
});

export const recordSharedViewPageCall = defineCall({
  id: 'portal.sharedViewPage',
  summary:
    'Records a page the contact centre viewed in a shared view (shown in the customer’s account activity). Only a shared view’s token; 403 for the customer’s own.',
  service: 'portal',
  method: 'POST',
  path: '/api/v1/screen-share/:customerId/pages',
  auth: true,
  sharedView: true,
  params: customerParams,
  body: sharedViewPageBody,
  responses: { 204: z.undefined(), ...customerCallErrors, 403: errorEnvelope },
});

export const endSharedViewCall = defineCall({
  id: 'portal.sharedViewEnd',
  summary:
    'Ends the shared view of the calling token (the agent closes it): its token is refused on every instance from then on. Only a shared view’s token.',
  service: 'portal',
  method: 'POST',
  path: '/api/v1/screen-share/:customerId/end',
  auth: true,
  sharedView: true,
  params: customerParams,
  body: emptyBody,
  responses: { 204: z.undefined(), ...customerCallErrors, 403: errorEnvelope },
});

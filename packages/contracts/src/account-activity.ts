import { z } from 'zod/mini';
import { defineCall, named } from './call';
import { activityChannels, activityKinds, activityMethods } from './account-activity-kinds';
import { customerCallErrors, customerIdValue, isoDateTime } from './common';

/**
 * "Your account activity" (issue 26, docs/decisions/027): the signed-in customer's own security and
 * consent history from the audit trail, newest first, a page at a time. Each item is what happened
 * (`kind`, from a closed list) and a few plain facts; never an internal id, a correlation id, a full
 * phone number or email address, or anything of another customer. Served by the portal service.
 */

export { activityChannels, activityKinds, activityMethods };
export const activityKind = z.enum(activityKinds);
export type ActivityKind = z.infer<typeof activityKind>;
export type ActivityMethod = (typeof activityMethods)[number];

export const activityItem = named(
  z.object({
    /** When it happened (the screen shows UK time). */
    at: isoDateTime,
    kind: activityKind,
    method: z.optional(z.enum(activityMethods)),
    /** Where a code or a change went, masked: "+44 XXXX XXX555", "t•••@example.co.uk". */
    destination: z.optional(z.string().check(z.maxLength(120))),
    /** The browser and system, in words ("Chrome on Windows"), when known. */
    browser: z.optional(z.string().check(z.maxLength(80))),
    /** marketing-choice: the channels chosen; empty when the customer chose none. */
    channels: z.optional(z.array(z.enum(activityChannels))),
    /** paperless-choice: true for paperless, false for paper. */
    paperless: z.optional(z.boolean()),
    /** contact-message-sent: the product type the message was about (PHL, MPC, ACCOUNT, ...). */
    about: z.optional(z.string().check(z.maxLength(20))),
    /** sessions-ended: one session, or every other one. */
    scope: z.optional(z.enum(['one', 'others'])),
    /** sessions-ended: how many ended. */
    count: z.optional(z.number().check(z.int(), z.minimum(0))),
    /** account-locked: until when. */
    until: z.optional(isoDateTime),
    /** contact-centre-viewed-page: the page's title, as every customer sees it. */
    page: z.optional(z.string().check(z.maxLength(120))),
  }),
  'ActivityItem',
);
export type ActivityItem = z.infer<typeof activityItem>;

export const activityPage = named(
  z.object({
    items: z.array(activityItem),
    /** Pass as `cursor` for the next (older) page; null when there is none. */
    nextCursor: z.nullable(z.string()),
  }),
  'ActivityPage',
);
export type ActivityPage = z.infer<typeof activityPage>;

export const ACTIVITY_PAGE_SIZE = 20;
export const ACTIVITY_MAX_PAGE_SIZE = 50;

export const activityQuery = z.object({
  /** From the previous page's nextCursor; opaque. A cursor that is not one of ours is a 400. */
  cursor: z.optional(
    z.string().check(z.minLength(1), z.maxLength(200), z.regex(/^[A-Za-z0-9_-]+$/, 'Not a cursor')),
  ),
  pageSize: z._default(
    z.coerce
      .number({ error: 'Enter a page size' })
      .check(
        z.int('Enter a whole page size'),
        z.minimum(1, 'Page size is at least 1'),
        z.maximum(ACTIVITY_MAX_PAGE_SIZE, `Page size is at most ${ACTIVITY_MAX_PAGE_SIZE}`),
      ),
    ACTIVITY_PAGE_SIZE,
  ),
});

export const listAccountActivityCall = defineCall({
  id: 'portal.accountActivity',
  summary:
    "The customer's own security and consent history, newest first: sign-ins, codes sent (masked), password, email, mobile and sign-in method changes, sessions ended, marketing and paperless choices, contact-us messages. Keyset paged: pass nextCursor as cursor for older items. 400 for a cursor that is not one of ours; 404 when the customer id is not the token's.",
  service: 'portal',
  method: 'GET',
  path: '/api/v1/account-activity/:customerId',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue }),
  query: activityQuery,
  responses: { 200: activityPage, ...customerCallErrors },
});

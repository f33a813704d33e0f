import { z } from 'zod/mini';
import { defineCall, errorEnvelope, named } from './call';
import { customerIdValue, isoDateTime } from './common';
import { shareCodeInput } from './screen-share';
import { staffReason } from './staff';

/*
 * The contact centre's side of "Share your screen with us" (issue 41 point 6, decision 039): apart from
 * the customer's calls (screen-share.ts), so no customer page loads the console's contracts.
 */

export const staffSharedViewBody = z.strictObject({
  reason: staffReason,
  /** The customer's code; optional only where STAFF_SHARED_VIEW_CODE is off (the server says which). */
  code: z.optional(shareCodeInput),
});

export const staffSharedViewLink = named(
  z.object({
    /** Open in a new tab: the portal's address with a one-time ticket in its fragment. */
    url: z.string(),
    /** The link works once, until then. */
    linkExpiresAt: isoDateTime,
    /** The view ends then at the latest. */
    viewEndsAt: isoDateTime,
  }),
  'StaffSharedViewLink',
);
export type StaffSharedViewLink = z.infer<typeof staffSharedViewLink>;

export const staffOpenSharedViewCall = defineCall({
  id: 'staff.customers.sharedView',
  summary:
    'Checks the customer’s code (unless codes are off) and answers a one-time link to their portal, read only, for 30 minutes at most (audited). 422 for a wrong or expired code; 429 after too many wrong codes.',
  service: 'staff',
  method: 'POST',
  path: '/staff/api/customers/:customerId/shared-view',
  auth: false,
  staffRoles: ['agent', 'senior-agent'],
  params: z.strictObject({ customerId: customerIdValue }),
  body: staffSharedViewBody,
  responses: {
    201: staffSharedViewLink,
    400: errorEnvelope,
    401: errorEnvelope,
    403: errorEnvelope,
    404: errorEnvelope,
    422: errorEnvelope,
    429: errorEnvelope,
    503: errorEnvelope,
  },
});

import { z } from 'zod/mini';
import { defineCall, errorEnvelope, named, staffRoles } from './call';
import { isoDateTime } from './common';

/*
 * The contact centre's console (issue 41): its calls, under /staff/api, for staff signed in through the
 * insurer's workforce identity provider (a session cookie, never a bearer token). Every call names the
 * roles it is for; a write sends the session's CSRF token in X-CSRF-Token.
 */

const everyRole = staffRoles;

/** The signed-in staff member, and what the console needs to call on their behalf. */
export const staffSession = named(
  z.object({
    name: z.string(),
    email: z.string(),
    roles: z.array(z.enum(staffRoles)),
    /** Sent back in X-CSRF-Token with every write. */
    csrfToken: z.string(),
    /** When the session ends if no call is made before (the idle limit, 15 minutes by default). */
    idleExpiresAt: isoDateTime,
    /** When it ends whatever is done (8 hours after sign-in by default). */
    expiresAt: isoDateTime,
  }),
  'StaffSession',
);
export type StaffSession = z.infer<typeof staffSession>;

export const getStaffSessionCall = defineCall({
  id: 'staff.session',
  summary: 'The signed-in staff member, their roles, the CSRF token and when the session ends',
  service: 'staff',
  method: 'GET',
  path: '/staff/api/session',
  auth: false,
  staffRoles: everyRole,
  responses: { 200: staffSession, 401: errorEnvelope },
});

export const staffSignOutCall = defineCall({
  id: 'staff.signOut',
  summary: 'Ends the staff session (the workforce provider session is the provider’s)',
  service: 'staff',
  method: 'POST',
  path: '/staff/api/sign-out',
  auth: false,
  staffRoles: everyRole,
  responses: { 204: z.undefined(), 401: errorEnvelope, 403: errorEnvelope },
});

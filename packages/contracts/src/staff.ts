import { z } from 'zod/mini';
import { activityItem } from './account-activity';
import { defineCall, errorEnvelope, named, staffRoles } from './call';
import { customerIdValue, customerParams, isoDateTime } from './common';
import { dateOfBirthInput, emailInput, policyNumberInput, postcodeInput } from './fields';

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
    /**
     * Whether seeing what a customer sees needs the code they read out (`required`, the default) or not
     * (`off`: STAFF_SHARED_VIEW_CODE, for insurers whose call scripts check identity; issue 41 point 6).
     */
    sharedViewCode: z.enum(['required', 'off']),
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

export const getStaffSessionStatusCall = defineCall({
  id: 'staff.sessionStatus',
  summary:
    'The session as it is, without counting as activity: the console checks it when its idle time seems over',
  service: 'staff',
  method: 'GET',
  path: '/staff/api/session/status',
  auth: false,
  staffRoles: everyRole,
  staffPassive: true,
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

/*
 * Finding and helping a customer (issue 41 points 2-5). Every search and every opened record carries a
 * reason (a ticket or call reference), audited with the staff member and the result; every action too,
 * audited on the customer's behalf (`on_behalf_of` names the staff member) and shown in the customer's
 * own account activity.
 */

/** Why a record is opened or an action taken: a ticket or call reference, said in the audit trail. */
export const staffReason = z
  .string()
  .check(
    z.trim(),
    z.minLength(3, 'Give a reason: a ticket or call reference'),
    z.maxLength(200, 'Keep the reason to 200 characters'),
  );

const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 429: errorEnvelope };
const recordErrors = { ...errors, 404: errorEnvelope, 409: errorEnvelope, 503: errorEnvelope };

/** What to find a customer by: an exact customer id, email or policy number, or surname with date of birth and postcode. */
export const staffSearchQuery = z.discriminatedUnion('by', [
  z.strictObject({ by: z.literal('customerId'), customerId: customerIdValue }),
  z.strictObject({ by: z.literal('email'), email: emailInput }),
  z.strictObject({ by: z.literal('policyNumber'), policyNumber: policyNumberInput }),
  z.strictObject({
    by: z.literal('nameAndBirth'),
    surname: z.string().check(z.trim(), z.minLength(1, 'Enter the surname'), z.maxLength(100)),
    dateOfBirth: dateOfBirthInput,
    postcode: postcodeInput,
  }),
]);
export type StaffSearchQuery = z.infer<typeof staffSearchQuery>;

export const staffSearchBody = z.strictObject({ reason: staffReason, query: staffSearchQuery });
export type StaffSearchBody = z.infer<typeof staffSearchBody>;

/** A customer found: enough to pick the right one, nothing more (the record is opened with a reason). */
export const staffSearchResult = named(
  z.object({
    customerId: z.string(),
    /** Title, first and last name as held. */
    name: z.string(),
    /** The postcode's outward part and first digit of the inward ("HR8 2"), to tell namesakes apart. */
    postcodeStart: z.nullable(z.string()),
    /** active: can sign in; pending: registered, the activation link not used yet; none: never registered, or closed. */
    onlineAccount: z.enum(['active', 'pending', 'none']),
  }),
  'StaffSearchResult',
);

export const staffSearchResponse = named(
  z.object({
    /** At most 10: exact searches find one customer; a name search with a wrong detail finds none. */
    results: z.array(staffSearchResult),
  }),
  'StaffSearchResponse',
);
export type StaffSearchResponse = z.infer<typeof staffSearchResponse>;

export const staffSearchCall = defineCall({
  id: 'staff.customers.search',
  summary:
    'Finds customers by id, email, policy number, or surname with date of birth and postcode (rate-limited, audited)',
  service: 'staff',
  method: 'POST',
  path: '/staff/api/customers/search',
  auth: false,
  staffRoles: ['agent', 'senior-agent', 'auditor'],
  body: staffSearchBody,
  responses: { 200: staffSearchResponse, ...errors },
});

export const staffReasonBody = z.strictObject({ reason: staffReason });

/** A second factor by kind, never its secret: how many and when the newest was added. */
const staffFactor = z.object({
  kind: z.enum(['text', 'call', 'authenticator-app', 'passkey', 'backup-codes']),
  /** Where a code goes (masked), for text and call. */
  destination: z.optional(z.string()),
  count: z.number().check(z.int(), z.minimum(1)),
  addedAt: z.nullable(isoDateTime),
});

/** A customer's state at a glance (issue 41 point 4). */
export const staffCustomerView = named(
  z.object({
    customerId: z.string(),
    name: z.string(),
    /** For the identity questions: what the customer should be able to say. */
    dateOfBirth: z.string(),
    postcode: z.nullable(z.string()),
    email: z.nullable(z.string()),
    mobile: z.nullable(z.string()),
    landline: z.nullable(z.string()),
    registration: z.object({
      /**
       * none: never registered; pending: registered, the activation link not used yet; active: can sign
       * in; closed: the online account was closed.
       */
      state: z.enum(['none', 'pending', 'active', 'closed']),
      /** pending: when the activation link was last sent. */
      activationSentAt: z.nullable(isoDateTime),
    }),
    signIn: z.object({
      locked: z.boolean(),
      lockedUntil: z.nullable(isoDateTime),
      lastSignInAt: z.nullable(isoDateTime),
      /** The browser and system of the last sign-in, in words. */
      lastSignInDevice: z.nullable(z.string()),
    }),
    factors: z.array(staffFactor),
    sessions: z.array(
      z.object({
        /** Opaque: the sign-in session, to end one (as the customer's own list does). */
        id: z.string(),
        browser: z.nullable(z.string()),
        signedInAt: isoDateTime,
        lastActiveAt: z.nullable(isoDateTime),
      }),
    ),
    preferences: z.object({
      paperless: z.boolean(),
      marketing: z.object({
        email: z.nullable(z.boolean()),
        phone: z.nullable(z.boolean()),
        post: z.nullable(z.boolean()),
        online: z.nullable(z.boolean()),
      }),
    }),
    policies: z.array(
      z.object({
        policyNumber: z.string(),
        /** The product in words ("Home insurance"). */
        product: z.string(),
        status: z.string(),
        renewalDate: z.nullable(z.string()),
      }),
    ),
    /** The last 20 entries of the customer's own account activity, newest first. */
    activity: z.array(activityItem),
  }),
  'StaffCustomerView',
);
export type StaffCustomerView = z.infer<typeof staffCustomerView>;

export const staffOpenCustomerCall = defineCall({
  id: 'staff.customers.open',
  summary: 'Opens a customer’s record with a reason (audited): their state at a glance',
  service: 'staff',
  method: 'POST',
  path: '/staff/api/customers/:customerId/open',
  auth: false,
  staffRoles: ['agent', 'senior-agent'],
  params: customerParams,
  body: staffReasonBody,
  responses: { 200: staffCustomerView, ...recordErrors },
});

/** What an action did, said back to the staff member (and then the record as it is now). */
export const staffActionResponse = named(
  z.object({ done: z.boolean(), customer: staffCustomerView }),
  'StaffActionResponse',
);

const action = (id: string, summary: string, path: string, roles: readonly ('agent' | 'senior-agent')[]) =>
  defineCall({
    id,
    summary,
    service: 'staff',
    method: 'POST',
    path,
    auth: false,
    staffRoles: roles,
    params: customerParams,
    body: staffReasonBody,
    responses: { 200: staffActionResponse, ...recordErrors },
  });

export const staffResendActivationCall = action(
  'staff.customers.resendActivation',
  'Sends the activation link again to a customer who registered and has not used it (409 otherwise)',
  '/staff/api/customers/:customerId/resend-activation',
  ['agent', 'senior-agent'],
);
export const staffUnlockCall = action(
  'staff.customers.unlock',
  'Unlocks a customer’s sign-in locked after wrong passwords or codes (409 when not locked)',
  '/staff/api/customers/:customerId/unlock',
  ['agent', 'senior-agent'],
);
export const staffEndSessionsCall = action(
  'staff.customers.endSessions',
  'Signs the customer out everywhere: every sign-in session and its tokens end',
  '/staff/api/customers/:customerId/end-sessions',
  ['agent', 'senior-agent'],
);

export const staffRemoveFactorsBody = z.strictObject({
  reason: staffReason,
  /** Which to remove: the authenticator app, every passkey, the backup codes. */
  kinds: z
    .array(z.enum(['authenticator-app', 'passkeys', 'backup-codes']))
    .check(z.minLength(1, 'Choose what to remove'), z.maxLength(3)),
  /** The senior agent confirms the identity questions were answered (the call script). */
  identityChecked: z.literal(true, 'Confirm you checked who you are speaking to'),
});
export const staffRemoveFactorsCall = defineCall({
  id: 'staff.customers.removeFactors',
  summary:
    'Removes a customer’s authenticator app, passkeys or backup codes after identity checks (emailed to them)',
  service: 'staff',
  method: 'POST',
  path: '/staff/api/customers/:customerId/remove-factors',
  auth: false,
  staffRoles: ['senior-agent'],
  params: customerParams,
  body: staffRemoveFactorsBody,
  responses: { 200: staffActionResponse, ...recordErrors },
});

export const staffChangeEmailBody = z.strictObject({
  reason: staffReason,
  email: emailInput,
  identityChecked: z.literal(true, 'Confirm you checked who you are speaking to'),
});
export const staffChangeEmailCall = defineCall({
  id: 'staff.customers.changeEmail',
  summary: 'Changes a customer’s email address on their behalf (both addresses are emailed)',
  service: 'staff',
  method: 'POST',
  path: '/staff/api/customers/:customerId/change-email',
  auth: false,
  staffRoles: ['senior-agent'],
  params: customerParams,
  body: staffChangeEmailBody,
  responses: { 200: staffActionResponse, ...recordErrors },
});

/** One audit row as an auditor reads it. */
export const staffAuditEntry = z.object({
  at: isoDateTime,
  eventId: z.string(),
  source: z.string(),
  isSuccess: z.nullable(z.boolean()),
  failureReason: z.nullable(z.string()),
  /** Who acted for the customer: a staff member (staff:<subject>), a client, or null (the customer). */
  onBehalfOf: z.nullable(z.string()),
  details: z.record(z.string(), z.unknown()),
});

export const staffAuditTrailBody = z.strictObject({
  reason: staffReason,
  /** From the previous page's nextCursor. */
  cursor: z.optional(z.string().check(z.maxLength(200))),
});
export const staffAuditTrailCall = defineCall({
  id: 'staff.customers.auditTrail',
  summary: 'A customer’s audit trail, newest first, 50 at a time (auditors; read only, audited)',
  service: 'staff',
  method: 'POST',
  path: '/staff/api/customers/:customerId/audit-trail',
  auth: false,
  staffRoles: ['auditor'],
  params: customerParams,
  body: staffAuditTrailBody,
  responses: {
    200: named(
      z.object({
        customerId: z.string(),
        name: z.string(),
        entries: z.array(staffAuditEntry),
        nextCursor: z.nullable(z.string()),
      }),
      'StaffAuditTrail',
    ),
    ...recordErrors,
  },
});

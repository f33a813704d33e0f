import { z } from 'zod/mini';
import { defineCall, errorEnvelope, named } from './call';
import { customerCallErrors, customerIdValue, emptyBody, isoDateTime } from './common';

/**
 * "Where you're signed in" on the profile's sign-in and security page (issue 26, decision 025): the
 * customer's live sign-in sessions, and signing one, or every other, out. Served by the portal service
 * with the customer's bearer token. Signing out is protective, so it needs no recent password check.
 */

/** A session's id: a UUID the server gave it (never the provider's grant id). */
const sessionId = z
  .string()
  .check(
    z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'Not a sign-in session id'),
  );

export const signInSession = named(
  z.object({
    id: z.string(),
    /** The browser's name (e.g. Chrome), from its user agent; null when it could not be told. */
    browser: z.nullable(z.string()),
    /** The operating system's name (e.g. Windows, iOS); null when it could not be told. */
    os: z.nullable(z.string()),
    /** The network signed in from, masked: `81.2.69.xxx`, or an IPv6 address's first three groups. */
    network: z.nullable(z.string()),
    signedInAt: isoDateTime,
    /** Moved on at most once a minute. */
    lastUsedAt: isoDateTime,
    /** The session of the token making this call. */
    thisDevice: z.boolean(),
    /**
     * A shared view (issue 41 point 6): the contact centre's staff member looking at the account, read
     * only, with the customer's code. Absent for the customer's own sign-ins.
     */
    viewer: z.optional(z.string()),
  }),
  'SignInSession',
);
export type SignInSession = z.infer<typeof signInSession>;

export const listSignInSessionsCall = defineCall({
  id: 'portal.signInSessions',
  summary:
    "The customer's live sign-in sessions, last used first, the caller's own marked thisDevice. 404 when the customer id is not the token's.",
  service: 'portal',
  method: 'GET',
  path: '/api/v1/sign-in-sessions/:customerId',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue }),
  responses: {
    200: named(z.object({ sessions: z.array(signInSession) }), 'SignInSessions'),
    ...customerCallErrors,
  },
});

export const sessionsEnded = named(
  z.object({ ended: z.number().check(z.int(), z.minimum(0)) }),
  'SignInSessionsEnded',
);

export const endSignInSessionCall = defineCall({
  id: 'portal.signInSessionEnd',
  summary:
    "Signs one session out: its refresh tokens and browser session end, and its access tokens are refused on every instance within a second. 404 for another customer's or an unknown id; 400 for a malformed one; 429 with Retry-After after too many sign-outs.",
  service: 'portal',
  method: 'DELETE',
  path: '/api/v1/sign-in-sessions/:customerId/:sessionId',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue, sessionId }),
  responses: { 200: sessionsEnded, ...customerCallErrors, 429: errorEnvelope },
});

export const endOtherSignInSessionsCall = defineCall({
  id: 'portal.signInSessionsEndOthers',
  summary:
    "Signs out every session of the customer but the caller's own, as one session's sign-out does; answers how many ended. Takes no body. 429 with Retry-After after too many sign-outs.",
  service: 'portal',
  method: 'POST',
  path: '/api/v1/sign-in-sessions/:customerId/sign-out-others',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue }),
  body: emptyBody,
  responses: { 200: sessionsEnded, ...customerCallErrors, 429: errorEnvelope },
});

import { z } from 'zod/mini';
import { defineCall, named } from './call';
import { oktaError } from './okta-error';

/**
 * The identity provider's browser session (Okta's `/api/v1/sessions/me`), read with the provider's
 * session cookie (`credentials: 'include'`). The session is created when an authorize request redeems a
 * one-time sessionToken and ends at sign-out (DELETE here, or the OpenID end-session endpoint).
 */

const isoInstant = z.iso.datetime({ offset: true });

export const oktaSession = named(
  z.object({
    /** The session's public id (never the cookie value). */
    id: z.string(),
    userId: z.string(),
    login: z.string(),
    createdAt: isoInstant,
    expiresAt: isoInstant,
    status: z.literal('ACTIVE'),
    lastPasswordVerification: z.nullable(isoInstant),
    lastFactorVerification: z.nullable(isoInstant),
    /** How the customer signed in: 'pwd' and the second factor ('sms' or 'call'). */
    amr: z.array(z.string()),
    idp: z.object({ id: z.null(), type: z.literal('OKTA') }),
    mfaActive: z.boolean(),
  }),
  'OktaSession',
);
export type OktaSession = z.infer<typeof oktaSession>;

export const currentSessionCall = defineCall({
  id: 'identity.sessionMe',
  summary:
    'The signed-in browser session, from the provider session cookie. 404 E0000007 (Not found: Resource not found: me (Session)) when there is none or it has ended.',
  service: 'identity',
  method: 'GET',
  path: '/api/v1/sessions/me',
  auth: false,
  responses: { 200: oktaSession, 404: oktaError },
});

export const endCurrentSessionCall = defineCall({
  id: 'identity.endSessionMe',
  summary:
    'Signs the browser out: ends the provider session and revokes the refresh tokens issued in it (204). 404 E0000007 when there is no session.',
  service: 'identity',
  method: 'DELETE',
  path: '/api/v1/sessions/me',
  auth: false,
  responses: { 204: z.undefined(), 404: oktaError },
});

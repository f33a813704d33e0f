import { randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT, type JSONWebKeySet } from 'jose';
import { apiAudience, oidcIssuer, registerLocalKeySource } from '../../platform/auth-guard';
import type { OidcContext } from './context';
import type { Queryable } from '../../platform/db';
import { loadOidcKeys, type OidcKeys } from './keys';
import { openSharedViewGrant, type SharedViewGrant } from './shared-views';
import {
  endOtherSessions,
  endSession,
  grantOfSession,
  latestSignInBrowser,
  listSignInSessions,
  signedInSince,
  type SignInSessionRow,
} from './sign-in-sessions';

/** Audience of the status token that replaces `{statusToken}` in a redirect_url. */
const STATUS_TOKEN_AUDIENCE = 'status-token';
/** Lifetime of a status token, in seconds. */
const STATUS_TOKEN_TTL = 5 * 60;

/** What other modules may call (ctx.services.oidc). */
export interface OidcService {
  /** `${identity base URL}/oauth2/default`. */
  readonly issuer: string;
  /** `aud` of every portal access token. */
  readonly apiAudience: string;
  /** The key material (loaded, or generated and stored, on first use). */
  keys(): Promise<OidcKeys>;
  /** The public keys as published at {issuer}/v1/keys. */
  publicJwks(): Promise<JSONWebKeySet>;
  /** A short-lived signed token naming the customer, for a redirect_url's `{statusToken}` placeholder. */
  signStatusToken(customerId: string): Promise<{ token: string; expiresAt: Date }>;
  /** The customer of a valid, unexpired status token, or null. */
  verifyStatusToken(token: string): Promise<{ customerId: string } | null>;
  /**
   * Opens a shared view's sign-in (issue 41 point 6) in `q`: its grant, listed under "Where you're
   * signed in" with the viewer's name, and its one read-only access token, good until `expiresAt`.
   */
  openSharedView(q: Queryable, view: SharedViewGrant): Promise<{ accessToken: string; grantId: string }>;
  /**
   * The customers' sign-in sessions ("Where you're signed in", decision 025): this module's, as the
   * grants they belong to are.
   */
  signInSessions: {
    /** A customer's live sign-in sessions, last used first. */
    list(customerId: string, now: Date): Promise<SignInSessionRow[]>;
    /** The grant of one of this customer's sessions by its public id, or undefined. */
    grantOf(
      customerId: string,
      sessionId: string,
    ): Promise<{ grantId: string; accountId: string; viewerName: string | null } | undefined>;
    /** Ends one sign-in of the account, in `q`; whether there was one. */
    end(q: Queryable, accountId: string, grantId: string): Promise<boolean>;
    /** Ends every sign-in of the account but `keepGrantId`'s, in `q`; how many ended. */
    endOthers(q: Queryable, accountId: string, keepGrantId: string | null): Promise<number>;
    /** Whether the sign-in holding `grantId` signed in with a password at or after `since`. */
    signedInSince(grantId: string, accountId: string, since: Date): Promise<boolean>;
    /** Forgets the browsers the customer signed in from (the new-device email's memory), in `q`. */
    forgetBrowsers(q: Queryable, customerId: string): Promise<void>;
    /** The browser and system of the customer's latest sign-in, when noted (the contact centre's view). */
    latestBrowser(
      customerId: string,
    ): Promise<{ browser: string | null; os: string | null; at: Date } | null>;
  };
}

export function createOidcService(ctx: OidcContext): OidcService {
  let loading: Promise<OidcKeys> | undefined;
  const keys = () => {
    loading ??= loadOidcKeys(ctx).catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  const issuer = oidcIssuer(ctx.config);

  // When identity runs in this instance, the guard verifies against these keys without fetching the JWKS.
  registerLocalKeySource(ctx, () => async (header, token) => (await keys()).localKeySet(header, token));

  return {
    issuer,
    apiAudience: apiAudience(ctx.config),
    keys,
    publicJwks: async () => (await keys()).publicJwks,
    async signStatusToken(customerId) {
      const { current } = await keys();
      const now = Math.floor(ctx.clock.now().getTime() / 1000);
      const exp = now + STATUS_TOKEN_TTL;
      const token = await new SignJWT({ customerId })
        .setProtectedHeader({ alg: current.alg, kid: current.kid, typ: 'JWT' })
        .setIssuer(issuer)
        .setAudience(STATUS_TOKEN_AUDIENCE)
        .setSubject(customerId)
        .setIssuedAt(now)
        .setExpirationTime(exp)
        .setJti(randomUUID())
        .sign(current.key);
      return { token, expiresAt: new Date(exp * 1000) };
    },
    async verifyStatusToken(token) {
      try {
        const { payload } = await jwtVerify(token, (await keys()).localKeySet, {
          issuer,
          audience: STATUS_TOKEN_AUDIENCE,
          currentDate: ctx.clock.now(),
          requiredClaims: ['exp', 'sub'],
        });
        return typeof payload['customerId'] === 'string' ? { customerId: payload['customerId'] } : null;
      } catch {
        return null;
      }
    },
    openSharedView: async (q, view) => openSharedViewGrant(ctx, await keys(), q, view),
    signInSessions: {
      list: (customerId, now) => listSignInSessions(ctx.db, customerId, now),
      grantOf: (customerId, sessionId) => grantOfSession(ctx.db, customerId, sessionId),
      end: endSession,
      endOthers: endOtherSessions,
      signedInSince: (grantId, accountId, since) => signedInSince(ctx.db, grantId, accountId, since),
      latestBrowser: (customerId) => latestSignInBrowser(ctx.db, customerId),
      forgetBrowsers: async (q, customerId) => {
        await q.query('DELETE FROM portal_known_browser WHERE customer_id = $1', [customerId]);
      },
    },
  };
}

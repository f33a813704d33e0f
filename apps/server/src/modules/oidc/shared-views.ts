import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { PORTAL_SCOPE, apiAudience, oidcIssuer } from '../../platform/auth-guard';
import type { Queryable } from '../../platform/db';
import { spaClientId } from '../../platform/page-init';
import type { OidcContext } from './context';
import type { OidcKeys } from './keys';
import { upsertPayload } from './oidc.repository';
import { recordSignInSession } from './sign-in-sessions';

/** What a shared view's sign-in is made of (issue 41 point 6, decision 039). */
export interface SharedViewGrant {
  /** The customer's identity user (`sub`). */
  accountId: string;
  customerId: string;
  /** The view's id (claim `view`): the portal module's row of it. */
  viewId: string;
  /** Who is looking: `staff:<subject>` (claim `onBehalfOf`). */
  onBehalfOf: string;
  /** The staff member's name, as the customer's "Where you're signed in" shows it. */
  viewerName: string;
  /** When the view ends: the grant, and so the token, are good until then and no longer. */
  expiresAt: Date;
  userAgent: string | undefined;
  address: string | undefined;
}

/**
 * A shared view is a sign-in of its own: a grant of the portal's client for the customer's account, alive
 * until the view's end, listed under "Where you're signed in" (with the viewer's name), and ended as any
 * other (the customer signs it out there, or the view ends itself) so its token is refused on every
 * instance. Its one access token is signed with the provider's current key, as the provider's own are
 * (`at+jwt`, the portal audience and scope), carrying `onBehalfOf` = the staff member and `view` = the
 * view's id; it has no refresh token, so it is never renewed past the view's end.
 */
export async function openSharedViewGrant(
  ctx: OidcContext,
  keys: OidcKeys,
  q: Queryable,
  view: SharedViewGrant,
): Promise<{ accessToken: string; grantId: string }> {
  const now = ctx.clock.now();
  const iat = Math.floor(now.getTime() / 1000);
  const exp = Math.floor(view.expiresAt.getTime() / 1000);
  const grantId = randomBytes(24).toString('base64url');
  const audience = apiAudience(ctx.config);
  await upsertPayload(q, {
    model: 'Grant',
    id: grantId,
    payload: {
      iat,
      exp,
      jti: grantId,
      kind: 'Grant',
      accountId: view.accountId,
      clientId: spaClientId,
      resources: { [audience]: PORTAL_SCOPE },
      sharedView: view.viewId,
    },
    grantId: null,
    userCode: null,
    uid: null,
    expiresAt: view.expiresAt,
  });
  await recordSignInSession(q, {
    grantId,
    accountId: view.accountId,
    customerId: view.customerId,
    userAgent: view.userAgent,
    address: view.address,
    startedAt: now,
    now,
  });
  await q.query('UPDATE portal_sign_in_session SET viewer_name = $2 WHERE grant_id = $1', [
    grantId,
    view.viewerName,
  ]);
  const { current } = keys;
  const accessToken = await new SignJWT({
    client_id: spaClientId,
    scope: PORTAL_SCOPE,
    customerId: view.customerId,
    onBehalfOf: view.onBehalfOf,
    gid: grantId,
    view: view.viewId,
  })
    .setProtectedHeader({ alg: current.alg, kid: current.kid, typ: 'at+jwt' })
    .setIssuer(oidcIssuer(ctx.config))
    .setAudience(audience)
    .setSubject(view.accountId)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .setJti(randomBytes(16).toString('base64url'))
    .sign(current.key);
  return { accessToken, grantId };
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { OktaError } from '@portal/contracts/identity';
import { currentSessionCall, endCurrentSessionCall, type OktaSession } from '@portal/contracts/session';
import { writeAudit } from '../../platform/audit';
import type { OidcContext } from './context';
import { route, SENT } from '../../platform/route';
import { identityPort } from './identity-port';
import { destroyGrantEverywhere, destroyPayload, findPayload } from './oidc.repository';
import { sessionCookieOptions } from './provider';

interface StoredSession {
  uid?: string;
  accountId?: string;
  loginTs?: number;
  amr?: string[];
  authorizations?: Record<string, { grantId?: string }>;
}

const FACTOR_METHODS = new Set(['sms', 'tel', 'mfa', 'otp']);

async function notFound(request: FastifyRequest, reply: FastifyReply) {
  const body: OktaError = {
    errorCode: 'E0000007',
    errorSummary: 'Not found: Resource not found: me (Session)',
    errorLink: 'E0000007',
    errorId: request.correlationId,
    errorCauses: [],
  };
  await reply.status(404).type('application/json; charset=utf-8').send(body);
  return SENT;
}

/**
 * Okta's `/api/v1/sessions/me`: the provider session behind the browser's session cookie. GET describes
 * it; DELETE signs out (ends the session and revokes its grants, so its refresh tokens stop working).
 * Neither takes a body, and like Okta they ignore one: okta-auth-js's `closeSession` sends DELETE with
 * `Content-Type: application/json` and nothing after it, which must end the session (204), not fail.
 */
export async function sessionRoutes(parent: FastifyInstance, ctx: OidcContext, provider: Provider) {
  await parent.register(async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));
    await sessionRoutesIn(app, ctx, provider);
  });
}

async function sessionRoutesIn(app: FastifyInstance, ctx: OidcContext, provider: Provider) {
  const cookieName = provider.cookieName('session');

  /** The session the request's signed cookie names, if it is live and signed in. */
  async function currentSession(request: FastifyRequest, reply: FastifyReply) {
    // The provider's own cookie reader checks the signature with the configured cookie keys.
    const jti = provider.createContext(request.raw, reply.raw).cookies.get(cookieName, { signed: true });
    if (!jti) return undefined;
    const row = await findPayload(ctx.db, 'Session', 'id', jti, ctx.clock.now());
    const session = row?.payload as StoredSession | undefined;
    if (!row || !session?.accountId) return undefined;
    return { jti, session, expiresAt: row.expiresAt };
  }

  route(app, currentSessionCall, async ({ request, reply }) => {
    const found = await currentSession(request, reply);
    if (!found) return notFound(request, reply);
    const { session, expiresAt } = found;
    const user = await identityPort(ctx).getUser(session.accountId!);
    if (!user) return notFound(request, reply);
    const signedInAt = new Date((session.loginTs ?? 0) * 1000).toISOString();
    const amr = session.amr ?? ['pwd'];
    const body: OktaSession = {
      id: session.uid ?? '',
      userId: session.accountId!,
      login: user.login,
      createdAt: signedInAt,
      expiresAt: (
        expiresAt ?? new Date((session.loginTs ?? 0) * 1000 + ctx.config.oidc.sessionTtl * 1000)
      ).toISOString(),
      status: 'ACTIVE',
      // A sessionToken is issued only after the password and then the code were checked, minutes before.
      lastPasswordVerification: amr.includes('pwd') ? signedInAt : null,
      lastFactorVerification: amr.some((m) => FACTOR_METHODS.has(m)) ? signedInAt : null,
      amr,
      idp: { id: null, type: 'OKTA' },
      mfaActive: true,
    };
    return body;
  });

  route(app, endCurrentSessionCall, async ({ request, reply }) => {
    const found = await currentSession(request, reply);
    if (!found) return notFound(request, reply);
    const { jti, session } = found;
    const user = await identityPort(ctx).getUser(session.accountId!);
    await ctx.db.transaction(async (tx) => {
      for (const { grantId } of Object.values(session.authorizations ?? {})) {
        if (grantId) await destroyGrantEverywhere(tx, grantId);
      }
      await destroyPayload(tx, 'Session', jti);
      await writeAudit(tx, {
        source: 'server',
        eventId: 'oidc.session.ended',
        customerId: user?.customerId ?? null,
        onBehalfOf: user?.customerId ?? null,
        sessionId: request.sessionId ?? null,
        correlationId: request.correlationId,
        isSuccess: true,
        details: { via: 'sessions/me' },
      });
    });
    // Cleared with the attributes they were set with (Secure on HTTPS), or a browser keeps them.
    const set = sessionCookieOptions(ctx);
    const expired = [
      `path=${set.path}`,
      'expires=Thu, 01 Jan 1970 00:00:00 GMT',
      `samesite=${set.sameSite}`,
      ...(set.secure ? ['secure'] : []),
      ...(set.httpOnly ? ['httponly'] : []),
    ].join('; ');
    reply.header('set-cookie', [`${cookieName}=; ${expired}`, `${cookieName}.sig=; ${expired}`]);
    return undefined;
  });
}

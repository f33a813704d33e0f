import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  authnCall,
  cancelCall,
  factorActivateCall,
  factorEnrollCall,
  factorResendCall,
  factorVerifyCall,
  introspectCall,
  previousCall,
  recoveryPasswordCall,
  recoveryTokenCall,
  recoveryUnlockCall,
  resetPasswordCall,
} from '@portal/contracts/identity';
import { passkeySignInCall, passkeySignInOptionsCall } from '@portal/contracts/passkeys';
import { counterStore } from '../../platform/counters';
import type { IdentityContext } from './context';
import { route } from '../../platform/route';
import { identityLimits, type Authn, type RequestMeta } from './authn.service';
import type { IdentityService } from './identity.service';
import { installOktaErrorHandler, oktaErrors, rateLimitHeaders } from './okta-errors';

const meta = (request: FastifyRequest): RequestMeta => ({
  correlationId: request.correlationId,
  sessionId: request.sessionId,
  log: request.log,
  clientAddress: request.ip,
});

/**
 * Okta's classic Authentication API under the identity base URL. Every answer and error is in Okta's
 * shapes (contracts/identity.ts); nothing here is cached by browsers or proxies.
 */
export async function authnRoutes(
  app: FastifyInstance,
  ctx: IdentityContext,
  authn: Authn,
  identity: IdentityService,
) {
  installOktaErrorHandler(app);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  route(app, authnCall, async ({ body, request, reply }) => {
    if ('token' in body) return authn.activationToken(body.token, meta(request));
    if ('stateToken' in body) return authn.introspect(body.stateToken);
    const rate = await authn.takeUsernameRate(body.username);
    reply.headers(rateLimitHeaders(rate));
    return authn.primaryAuth(body.username, body.password, meta(request));
  });

  route(app, factorVerifyCall, ({ params, body, request }) =>
    authn.verifyFactor(params.factorId, body.stateToken, body.passCode, meta(request), body),
  );

  route(app, factorEnrollCall, ({ body, request }) =>
    authn.enrolFactor(body.stateToken, body.factorType, body.provider, meta(request)),
  );

  route(app, factorActivateCall, ({ params, body, request }) =>
    authn.activateFactor(params.factorId, body.stateToken, body.passCode, meta(request)),
  );

  route(app, passkeySignInOptionsCall, ({ request }) => authn.passkeySignInOptions(meta(request)));

  route(app, passkeySignInCall, ({ body, request }) => authn.passkeySignIn(body.credential, meta(request)));

  route(app, factorResendCall, ({ params, body, request }) =>
    authn.resend(params.factorId, body.stateToken, meta(request)),
  );

  route(app, previousCall, ({ body }) => authn.previous(body.stateToken));

  route(app, resetPasswordCall, ({ body, request }) =>
    authn.resetPassword(body.stateToken, body.newPassword, meta(request)),
  );

  // Forgotten password and unlock share one budget of emailed links per client address: stops one client
  // mailing every customer.
  const takeEmailLinkRate = async (request: FastifyRequest) => {
    const perIp = await (
      await counterStore(ctx)
    ).take(`recovery-ip:${request.ip}`, identityLimits.emailLinksPerAddressPerHour, 60 * 60_000);
    if (!perIp.allowed) throw oktaErrors.rateLimited(perIp);
  };

  route(app, recoveryPasswordCall, async ({ body, request }) => {
    await takeEmailLinkRate(request);
    await identity.requestPasswordReset(body.username, meta(request));
    return authn.recoveryChallenge();
  });

  route(app, recoveryUnlockCall, async ({ body, request }) => {
    await takeEmailLinkRate(request);
    await authn.requestUnlock(body.username, meta(request));
    return authn.unlockChallenge();
  });

  route(app, recoveryTokenCall, ({ body, request }) =>
    authn.recoveryToken(body.recoveryToken, meta(request)),
  );

  route(app, introspectCall, ({ body }) => authn.introspect(body.stateToken));

  route(app, cancelCall, ({ body }) => authn.cancel(body.stateToken));
}

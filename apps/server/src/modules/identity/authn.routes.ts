import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  activationTokenBody,
  factorParams,
  factorVerifyBody,
  primaryAuthBody,
  recoveryPasswordBody,
  recoveryTokenBody,
  resetPasswordBody,
  stateTokenBody,
} from '@portal/contracts';
import { counterStore } from '../../platform/counters';
import type { ModuleContext } from '../../platform/module';
import { parseInput } from '../../platform/validate';
import type { Authn, RequestMeta } from './authn.service';
import type { IdentityService } from './identity.service';
import { installOktaErrorHandler, oktaErrors, rateLimitHeaders } from './okta-errors';

/** Forgotten-password requests per client address an hour: stops one client mailing every customer. */
const RECOVERY_PER_IP_PER_HOUR = 20;

const meta = (request: FastifyRequest): RequestMeta => ({
  correlationId: request.correlationId,
  sessionId: request.sessionId,
  log: request.log,
});

/**
 * Okta's classic Authentication API under the identity base URL. Every answer and error is in Okta's
 * shapes (contracts/identity.ts); nothing here is cached by browsers or proxies.
 */
export async function authnRoutes(
  app: FastifyInstance,
  ctx: ModuleContext,
  authn: Authn,
  identity: IdentityService,
) {
  installOktaErrorHandler(app);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.post('/api/v1/authn', async (request, reply) => {
    const raw = request.body;
    if (raw && typeof raw === 'object' && 'token' in raw && !('username' in raw)) {
      const body = parseInput(activationTokenBody, raw);
      return authn.activationToken(body.token, meta(request));
    }
    const body = parseInput(primaryAuthBody, raw);
    const rate = await authn.takeUsernameRate(body.username);
    reply.headers(rateLimitHeaders(rate));
    return authn.primaryAuth(body.username, body.password, meta(request));
  });

  app.post('/api/v1/authn/factors/:factorId/verify', async (request) => {
    const { factorId } = parseInput(factorParams, request.params, 'params');
    const body = parseInput(factorVerifyBody, request.body);
    return authn.verifyFactor(factorId, body.stateToken, body.passCode, meta(request));
  });

  app.post('/api/v1/authn/factors/:factorId/verify/resend', async (request) => {
    const { factorId } = parseInput(factorParams, request.params, 'params');
    const body = parseInput(stateTokenBody, request.body);
    return authn.resend(factorId, body.stateToken, meta(request));
  });

  app.post('/api/v1/authn/previous', async (request) => {
    const body = parseInput(stateTokenBody, request.body);
    return authn.previous(body.stateToken);
  });

  app.post('/api/v1/authn/credentials/reset_password', async (request) => {
    const body = parseInput(resetPasswordBody, request.body);
    return authn.resetPassword(body.stateToken, body.newPassword, meta(request));
  });

  app.post('/api/v1/authn/recovery/password', async (request) => {
    const body = parseInput(recoveryPasswordBody, request.body);
    const perIp = await (
      await counterStore(ctx)
    ).take(`recovery-ip:${request.ip}`, RECOVERY_PER_IP_PER_HOUR, 60 * 60_000);
    if (!perIp.allowed) throw oktaErrors.rateLimited(perIp);
    await identity.requestPasswordReset(body.username, meta(request));
    return authn.recoveryChallenge();
  });

  app.post('/api/v1/authn/recovery/token', async (request) => {
    const body = parseInput(recoveryTokenBody, request.body);
    return authn.recoveryToken(body.recoveryToken, meta(request));
  });

  app.post('/api/v1/authn/cancel', async (request) => {
    const body = parseInput(stateTokenBody, request.body);
    return authn.cancel(body.stateToken);
  });
}

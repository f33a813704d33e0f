import type { FastifyInstance } from 'fastify';
import {
  combinedPreferences,
  correspondencePreferences,
  marketingPreferences,
  statusTokenResponse,
  updatePreferencesBody,
  userPreferences,
} from '@portal/contracts/account';
import { customerParams, emptyBody } from '@portal/contracts/common';
import { customerOf, customerRoute } from '../../platform/auth-guard';
import type { ModuleContext } from '../../platform/module';
import { checkOutput, parseInput } from '../../platform/validate';
import type { PreferencesService } from './preferences.service';

/**
 * Account service HTTP routes. Every route runs the bearer guard first: no or bad token 401, another
 * customer's id in the path 404 (so nothing leaks), then the path, body and answer are checked against
 * the contracts.
 */
export async function accountRoutes(
  app: FastifyInstance,
  ctx: ModuleContext,
  preferences: PreferencesService,
) {
  // The status-token call has an empty body; the SPA still sends Content-Type application/json.
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    defaultJson(request, text, done);
  });

  const guarded = customerRoute(ctx);

  app.get('/api/v1/Preferences/:customerId/user', guarded, async (request) => {
    const { customerId } = parseInput(customerParams, request.params, 'params');
    return checkOutput(userPreferences, await preferences.user(customerId));
  });

  app.get('/api/v1/Preferences/:customerId/marketing', guarded, async (request) => {
    const { customerId } = parseInput(customerParams, request.params, 'params');
    return checkOutput(marketingPreferences, await preferences.marketing(customerId));
  });

  app.get('/api/v1/Preferences/:customerId/correspondence', guarded, async (request) => {
    const { customerId } = parseInput(customerParams, request.params, 'params');
    return checkOutput(correspondencePreferences, await preferences.correspondence(customerId));
  });

  app.patch('/api/v1/Preferences/:customerId', guarded, async (request) => {
    const { customerId } = parseInput(customerParams, request.params, 'params');
    const body = parseInput(updatePreferencesBody, request.body);
    const result = await preferences.update(
      {
        customerId,
        onBehalfOf: customerOf(request).onBehalfOf,
        sessionId: request.sessionId ?? null,
        correlationId: request.correlationId,
      },
      body,
    );
    return checkOutput(combinedPreferences, result);
  });

  app.post('/api/v1/customers/:customerId/status-token', guarded, async (request, reply) => {
    const { customerId } = parseInput(customerParams, request.params, 'params');
    parseInput(emptyBody, request.body ?? undefined);
    const issued = await ctx.services.oidc.signStatusToken(customerId);
    reply.header('Cache-Control', 'no-store');
    return checkOutput(statusTokenResponse, {
      token: issued.token,
      expiresAt: issued.expiresAt.toISOString(),
    });
  });
}

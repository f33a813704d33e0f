import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  completeRegistrationCall,
  requestPasswordResetCall,
  startRegistrationCall,
} from '@portal/contracts/registration';
import { HttpError } from '../../platform/errors';
import { route, SENT } from '../../platform/route';
import type { RequestMeta } from '../identity';
import type { RegistrationService } from './registration.service';

const meta = (request: FastifyRequest): RequestMeta => ({
  correlationId: request.correlationId,
  sessionId: request.sessionId,
  log: request.log,
});

/** Registration under the registration base URL; our error envelope. */
export async function registrationRoutes(app: FastifyInstance, registration: RegistrationService) {
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  route(app, startRegistrationCall, async ({ body, request, reply }) => {
    try {
      return await registration.start(body, request.ip, meta(request));
    } catch (error) {
      if (error instanceof HttpError) throw error;
      // The customer can only try again later; the SPA shows /error for status Error.
      request.log.error({ err: error }, 'registration could not be processed');
      await reply.status(503).send({
        status: 'Error',
        code: 'REGISTRATION_UNAVAILABLE',
        message: 'We could not process your registration just now. Please try again later.',
        correlationId: request.correlationId,
      });
      return SENT;
    }
  });

  route(app, requestPasswordResetCall, ({ body, request }) =>
    registration.requestPasswordReset(body.email, request.ip, meta(request)),
  );

  route(app, completeRegistrationCall, ({ body, request }) =>
    registration.complete(body.oktaUserId, body.stateToken, meta(request)),
  );
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { completeRegistrationBody, registrationBody, resetPasswordRequestBody } from '@portal/contracts';
import { HttpError } from '../../platform/errors';
import { parseInput } from '../../platform/validate';
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

  app.post('/Registration', async (request, reply) => {
    const body = parseInput(registrationBody, request.body);
    try {
      return await registration.start(body, request.ip, meta(request));
    } catch (error) {
      if (error instanceof HttpError) throw error;
      // The customer can only try again later; the SPA shows /error for status Error.
      request.log.error({ err: error }, 'registration could not be processed');
      return reply.status(503).send({
        status: 'Error',
        code: 'REGISTRATION_UNAVAILABLE',
        message: 'We could not process your registration just now. Please try again later.',
        correlationId: request.correlationId,
      });
    }
  });

  app.post('/Registration/resetPassword', async (request) => {
    const body = parseInput(resetPasswordRequestBody, request.body);
    return registration.requestPasswordReset(body.email, request.ip, meta(request));
  });

  app.post('/api/v1/registration/complete', async (request) => {
    const body = parseInput(completeRegistrationBody, request.body);
    return registration.complete(body.oktaUserId, body.stateToken, meta(request));
  });
}

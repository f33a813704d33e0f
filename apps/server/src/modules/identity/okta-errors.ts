import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { oktaErrorCodes as codes, type OktaError } from '@portal/contracts';
import { HttpError } from '../../platform/errors';
import type { RateDecision } from '../../platform/counters';
import { SEND_NOW_RETRY_AFTER_SECONDS } from '../../platform/notifier';

/** A failure answered in Okta's envelope: {errorCode, errorSummary, errorLink, errorId, errorCauses}. */
export class OktaHttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly errorCode: string,
    readonly errorSummary: string,
    readonly causes: string[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(errorSummary);
  }
}

/** Okta's rate-limit headers (limit, remaining, reset as epoch seconds). */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return {
    'X-Rate-Limit-Limit': String(decision.limit),
    'X-Rate-Limit-Remaining': String(decision.remaining),
    'X-Rate-Limit-Reset': String(Math.ceil(decision.resetAt.getTime() / 1000)),
  };
}

export const oktaErrors = {
  authenticationFailed: (headers?: Record<string, string>) =>
    new OktaHttpError(401, codes.authenticationFailed, 'Authentication failed', [], headers),
  invalidToken: () => new OktaHttpError(401, codes.invalidToken, 'Invalid token provided'),
  wrongState: () =>
    new OktaHttpError(
      403,
      codes.wrongState,
      'This operation is not allowed in the current authentication state.',
    ),
  invalidPasscode: (cause: string) =>
    new OktaHttpError(403, codes.invalidPasscode, 'Invalid Passcode/Answer', [cause]),
  credentialsUpdateFailed: (rule: string) =>
    new OktaHttpError(403, codes.credentialsUpdateFailed, 'Update of credentials failed', [rule]),
  factorNotFound: (factorId: string) =>
    new OktaHttpError(404, codes.notFound, `Not found: Resource not found: ${factorId} (Factor)`),
  invalidRecoveryToken: () =>
    new OktaHttpError(
      403,
      codes.invalidRecoveryToken,
      'You have accessed an account recovery link that has expired or been previously used.',
    ),
  rateLimited: (decision: Pick<RateDecision, 'retryAfterSeconds'> & Partial<RateDecision>) =>
    new OktaHttpError(429, codes.rateLimited, 'API call exceeded rate limit due to too many requests.', [], {
      'Retry-After': String(Math.max(1, decision.retryAfterSeconds)),
      ...(decision.resetAt && decision.limit !== undefined && decision.remaining !== undefined
        ? rateLimitHeaders(decision as RateDecision)
        : {}),
    }),
  deliveryFailed: () =>
    new OktaHttpError(
      503,
      codes.internal,
      'We could not send the code. Please try again in a few minutes.',
      [],
      { 'Retry-After': String(SEND_NOW_RETRY_AFTER_SECONDS) },
    ),
};

function send(request: FastifyRequest, reply: FastifyReply, error: OktaHttpError) {
  const body: OktaError = {
    errorCode: error.errorCode,
    errorSummary: error.errorSummary,
    errorLink: error.errorCode,
    errorId: request.correlationId,
    errorCauses: error.causes.map((errorSummary) => ({ errorSummary })),
  };
  reply.headers(error.headers);
  return reply.status(error.statusCode).type('application/json; charset=utf-8').send(body);
}

/** Answers every failure inside the identity API's scope in Okta's envelope; unexpected ones as E0000009. */
export function installOktaErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | HttpError | OktaHttpError | Error, request, reply) => {
    if (error instanceof OktaHttpError) return send(request, reply, error);
    if (error instanceof HttpError) {
      if (error.statusCode === 400) {
        const fields = Object.keys(error.fieldErrors ?? {});
        const causes = Object.entries(error.fieldErrors ?? {}).map(
          ([field, message]) => `${field}: ${message}`,
        );
        return send(
          request,
          reply,
          new OktaHttpError(
            400,
            codes.validation,
            `Api validation failed: ${fields.join(', ') || 'request'}`,
            causes,
          ),
        );
      }
      const code =
        error.statusCode === 429
          ? codes.rateLimited
          : error.statusCode === 404
            ? codes.notFound
            : codes.internal;
      return send(
        request,
        reply,
        new OktaHttpError(error.statusCode, code, error.message, [], error.headers),
      );
    }
    const fe = error as FastifyError;
    if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
      const malformed = fe.code?.startsWith('FST_ERR_CTP') ?? false;
      return send(
        request,
        reply,
        new OktaHttpError(
          fe.statusCode,
          malformed ? codes.malformed : codes.validation,
          malformed ? 'The request body was not well-formed.' : 'Api validation failed: request',
        ),
      );
    }
    request.log.error({ err: error }, 'unhandled error in identity API');
    return send(request, reply, new OktaHttpError(500, codes.internal, 'Internal Server Error'));
  });
}

import {
  changePasswordCall,
  passwordChangeErrorCodes,
  requestProfileCodeCall,
} from '@portal/contracts/portal';
import {
  activateTotpCall,
  createBackupCodesCall,
  confirmPasswordCall,
  enrolTotpCall,
  listSignInMethodsCall,
  removeSignInMethodCall,
} from '@portal/contracts/sign-in-methods';
import { declinePasskeyOfferCall, passkeyOfferCall } from '@portal/contracts/passkey-offer';
import { passkeyOptionsCall, registerPasskeyCall, renamePasskeyCall } from '@portal/contracts/passkeys';
import {
  endOtherSignInSessionsCall,
  endSignInSessionCall,
  listSignInSessionsCall,
} from '@portal/contracts/sign-in-sessions';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthenticatedCustomer } from '../../platform/auth-guard';
import { HttpError } from '../../platform/errors';
import { route, SENT } from '../../platform/route';
import type { IdentityService, RequestMeta } from '../identity';
import type { Reauthentication } from './reauthentication';
import { PasswordChangeRefusal, type PasswordChangeService } from './password-change.service';
import type { SignInSessionsService } from './sign-in-sessions.service';

const PASSWORD_PATH = changePasswordCall.path;

/**
 * The portal service: a one-time code for a profile change, and the password change itself. Every answer
 * of the password call that is not a success carries the spec's errorCode (§8), bad input included (4).
 */
export async function portalRoutes(
  app: FastifyInstance,
  passwords: PasswordChangeService,
  identity: IdentityService,
  reauthentication: Reauthentication,
  sessions: SignInSessionsService,
) {
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  // Any other refusal of the password call (bad input, a body too large, wrong media type) is errorCode 4
  // ("anything else") in the same envelope, but for a code of the wrong shape (1); 401 and 404 keep the
  // plain envelope the contract gives them.
  app.setErrorHandler((error, request, reply) => {
    const status =
      error instanceof HttpError
        ? error.statusCode
        : typeof (error as { statusCode?: unknown }).statusCode === 'number'
          ? (error as { statusCode: number }).statusCode
          : 500;
    const clientError = status >= 400 && status < 500 && status !== 401 && status !== 404;
    if (request.routeOptions.url?.endsWith(PASSWORD_PATH) && clientError) {
      if (error instanceof HttpError && error.headers) reply.headers(error.headers);
      // A code that is there but not 5 or 6 digits is a wrong code (1), whatever else is wrong with the body.
      const badCode =
        status === 400 &&
        error instanceof HttpError &&
        error.fieldErrors?.mfaPassCode !== undefined &&
        typeof (request.body as { mfaPassCode?: unknown } | undefined)?.mfaPassCode === 'string';
      return reply.status(status).send({
        code: badCode ? 'MFA_CODE_INVALID' : 'PASSWORD_CHANGE_FAILED',
        message: error instanceof HttpError ? error.message : 'The request is not valid.',
        ...(error instanceof HttpError && error.fieldErrors ? { fieldErrors: error.fieldErrors } : {}),
        errorCode: badCode ? passwordChangeErrorCodes.MFA_CODE_INVALID : 4,
        correlationId: request.correlationId,
      });
    }
    // Everything else: the app's own handler.
    throw error;
  });

  route(app, requestProfileCodeCall, ({ customer, params, request }) =>
    passwords.sendCode(customer.customerId, params.method, {
      correlationId: request.correlationId,
      ...(request.sessionId ? { sessionId: request.sessionId } : {}),
      log: request.log,
    }),
  );

  route(app, changePasswordCall, async ({ customer, body, request, reply }) => {
    try {
      return await passwords.change(
        {
          customerId: customer.customerId,
          onBehalfOf: customer.onBehalfOf,
          sub: customer.sub,
          grantId: customer.grantId ?? null,
          sessionId: request.sessionId ?? null,
          correlationId: request.correlationId,
          log: request.log,
        },
        body,
      );
    } catch (error) {
      if (!(error instanceof PasswordChangeRefusal)) throw error;
      await reply.status(error.statusCode).headers(error.headers).send({
        code: error.code,
        message: error.message,
        errorCode: error.errorCode,
        correlationId: request.correlationId,
      });
      return SENT;
    }
  });

  /* The profile's sign-in methods: authenticator app, backup codes, passkeys (identity does the work). */
  const meta = (request: FastifyRequest): RequestMeta => ({
    correlationId: request.correlationId,
    ...(request.sessionId ? { sessionId: request.sessionId } : {}),
    log: request.log,
    clientAddress: request.ip,
  });

  route(app, listSignInMethodsCall, async ({ customer }) => ({
    methods: await identity.listSignInMethods(customer.customerId),
  }));

  route(app, confirmPasswordCall, ({ customer, body, request }) =>
    reauthentication.confirmPassword(customer, body.password, meta(request)),
  );

  route(app, enrolTotpCall, async ({ customer, request }) => {
    await reauthentication.assertRecent(customer);
    return identity.enrolTotp(customer.customerId, meta(request));
  });

  route(app, activateTotpCall, ({ customer, params, body, request }) =>
    identity.activateTotp(customer.customerId, params.factorId, body.passCode, meta(request)),
  );

  route(app, removeSignInMethodCall, async ({ customer, params, request }) => {
    await reauthentication.assertRecent(customer);
    await identity.removeSignInMethod(customer.customerId, params.factorId, meta(request));
    return { removed: true as const };
  });

  // Adding a passkey needs a recent sign-in or password confirmation to get its challenge; the challenge
  // (this customer's, 5 minutes, single use) then carries that to the registration.
  route(app, passkeyOptionsCall, async ({ customer }) => {
    await reauthentication.assertRecent(customer);
    return identity.passkeyOptions(customer.customerId);
  });

  route(app, registerPasskeyCall, ({ customer, body, request }) =>
    identity.registerPasskey(customer.customerId, body.name, body.credential, meta(request)),
  );

  route(app, renamePasskeyCall, ({ customer, params, body, request }) =>
    identity.renamePasskey(customer.customerId, params.factorId, body.name, meta(request)),
  );

  // The offer after registration: reading it changes nothing, and "not now" needs no recent sign-in.
  route(app, passkeyOfferCall, ({ customer }) => identity.passkeyOffer(customer.customerId));

  route(app, declinePasskeyOfferCall, ({ customer, request }) =>
    identity.declinePasskeyOffer(customer.customerId, meta(request)),
  );

  route(app, createBackupCodesCall, async ({ customer, request }) => {
    await reauthentication.assertRecent(customer);
    return identity.createBackupCodes(customer.customerId, meta(request));
  });

  /* Where the customer is signed in (decision 025): no recent sign-in needed to sign others out. */
  const caller = (customer: AuthenticatedCustomer, request: FastifyRequest) => ({
    customer,
    sessionId: request.sessionId ?? null,
    correlationId: request.correlationId,
  });

  route(app, listSignInSessionsCall, ({ customer }) => sessions.list(customer));

  route(app, endSignInSessionCall, ({ customer, params, request }) =>
    sessions.endOne(caller(customer, request), params.sessionId),
  );

  route(app, endOtherSignInSessionsCall, ({ customer, request }) =>
    sessions.endOthers(caller(customer, request)),
  );
}

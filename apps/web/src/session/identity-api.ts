import { z } from 'zod/mini';
import {
  authnCall,
  authnTransaction,
  cancelCall,
  factorResendCall,
  factorVerifyCall,
  oktaErrorCodes,
  previousCall,
  type AuthnTransaction,
  type OktaError,
} from '@portal/contracts/identity';
import { endCurrentSessionCall } from '@portal/contracts/session';
import { ApiError, callApi, isApiCallError, NetworkError, type ApiCallError } from '../lib/api-client';

/**
 * The identity provider's classic Authentication API (Okta's shapes), as the sign-in pages use it. Every
 * call hands failures back to the caller instead of the default error page: each page has its own
 * message for a wrong password, a wrong code or a throttled request.
 */

/**
 * A transaction status our contract does not list but a real Okta org may send (LOCKED_OUT,
 * PASSWORD_EXPIRED, PASSWORD_WARN, MFA_ENROLL, ...). It is accepted so the page can say something useful
 * instead of failing on the shape; sessionStatusOf maps it to 'unknown'.
 */
const otherStatusTransaction = z.looseObject({
  status: z.string().check(z.minLength(1)),
  stateToken: z.optional(z.string()),
});
export type OtherStatusTransaction = z.infer<typeof otherStatusTransaction>;
export type AuthnAnswer = AuthnTransaction | OtherStatusTransaction;

const anyTransaction = z.union([authnTransaction, otherStatusTransaction]);

/** The contract's call with its 200 answer widened to other provider statuses (see above). */
function widened<C extends { responses: Record<number, z.ZodMiniType> }>(call: C): C {
  return { ...call, responses: { ...call.responses, 200: anyTransaction } };
}
const authn = widened(authnCall);
const factorVerify = widened(factorVerifyCall);
const factorResend = widened(factorResendCall);

/** True when the answer is one of the statuses our contract knows, with its full shape. */
export function isKnownTransaction(answer: AuthnAnswer): answer is AuthnTransaction {
  return authnTransaction.safeParse(answer).success;
}

const noDefaultHandling = { handleError: () => undefined };

/** Why an identity call failed, in the terms the pages need. */
export type IdentityFailure =
  /** Wrong email or password (Okta answers the same for unknown, locked and inactive users). */
  | 'wrongCredentials'
  /** The one-time code is wrong, expired or used up. */
  | 'wrongCode'
  /** The state token expired or the transaction was ended (cancelled, locked out). Start again. */
  | 'sessionExpired'
  /** Too many requests: wait before trying again. */
  | 'rateLimited'
  /** The code could not be sent (text or call provider failure). */
  | 'notDelivered'
  /** No answer at all (offline, DNS, refused). */
  | 'network'
  /** Anything else the provider refused or failed. */
  | 'other';

export function identityFailureOf(error: unknown): IdentityFailure {
  if (error instanceof NetworkError) return 'network';
  if (!(error instanceof ApiError)) return 'other';
  const code = oktaErrorCode(error);
  if (error.status === 429 || code === oktaErrorCodes.rateLimited) return 'rateLimited';
  if (code === oktaErrorCodes.invalidPasscode) return 'wrongCode';
  if (code === oktaErrorCodes.invalidToken || code === oktaErrorCodes.wrongState) return 'sessionExpired';
  if (error.status === 401 || code === oktaErrorCodes.authenticationFailed) return 'wrongCredentials';
  if (error.status === 502) return 'notDelivered';
  return 'other';
}

/** The Okta error code of a failed identity call, if the body carried Okta's envelope. */
export function oktaErrorCode(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const body = error.body as Partial<OktaError> | undefined;
  return typeof body?.errorCode === 'string' ? body.errorCode : undefined;
}

/** The provider's own explanation (errorCauses, else errorSummary), e.g. a broken password rule. */
export function oktaErrorMessage(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const body = error.body as Partial<OktaError> | undefined;
  const cause = body?.errorCauses?.find((c) => typeof c?.errorSummary === 'string')?.errorSummary;
  return cause ?? (typeof body?.errorSummary === 'string' ? body.errorSummary : undefined);
}

/** Primary authentication with email and password. */
export function primaryAuthentication(username: string, password: string): Promise<AuthnAnswer> {
  return callApi(authn, { body: { username, password }, ...noDefaultHandling });
}

/** Asks the provider to send a code by the factor (text or call): answers MFA_CHALLENGE. */
export function sendFactorCode(factorId: string, stateToken: string): Promise<AuthnAnswer> {
  return callApi(factorVerify, { params: { factorId }, body: { stateToken }, ...noDefaultHandling });
}

/** Checks a code: SUCCESS with a one-time sessionToken, or a 403 wrongCode failure. */
export function verifyFactorCode(
  factorId: string,
  stateToken: string,
  passCode: string,
): Promise<AuthnAnswer> {
  return callApi(factorVerify, {
    params: { factorId },
    body: { stateToken, passCode },
    ...noDefaultHandling,
  });
}

/** Sends a new code by the same factor; the previous code stops working. */
export function resendFactorCode(factorId: string, stateToken: string): Promise<AuthnAnswer> {
  return callApi(factorResend, { params: { factorId }, body: { stateToken }, ...noDefaultHandling });
}

/** Back from MFA_CHALLENGE to MFA_REQUIRED (to choose the other factor). */
export function previousStep(stateToken: string): Promise<AuthnAnswer> {
  return callApi(previousCall, { body: { stateToken }, ...noDefaultHandling });
}

/** Ends the transaction so its state token stops working. Never throws: it is tidy-up. */
export async function cancelTransaction(stateToken: string): Promise<void> {
  try {
    await callApi(cancelCall, { body: { stateToken }, ...noDefaultHandling });
  } catch (error) {
    if (!isApiCallError(error)) console.warn('Cancelling the sign-in transaction failed');
  }
}

/**
 * Ends the identity provider's browser session (and the refresh tokens issued in it). The session cookie
 * belongs to the provider's origin, so credentials are included. A 404 means there was none: fine.
 */
export async function endProviderSession(): Promise<void> {
  try {
    await callApi(endCurrentSessionCall, { credentials: 'include', ...noDefaultHandling });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return;
    throw error;
  }
}

export type { ApiCallError };

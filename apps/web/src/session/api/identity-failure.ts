import { oktaErrorCodes, type OktaError } from '@portal/contracts/identity';
import { ApiError, NetworkError } from '../../lib/api-client';

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
  /**
   * A service the call needs did not answer (503, with Retry-After): the text or call provider could not
   * send the code, or the service is down for a moment.
   */
  | 'unavailable'
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
  if (error.status === 503) return 'unavailable';
  return 'other';
}

/** The Okta error code of a failed identity call, if the body carried Okta's envelope. */
function oktaErrorCode(error: unknown): string | undefined {
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

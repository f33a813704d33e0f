import { z } from 'zod/mini';
import { named } from './call';

/** Okta's error envelope. `errorId` is unique per response (ours is the correlation id). */
export const oktaError = named(
  z.object({
    errorCode: z.string(),
    errorSummary: z.string(),
    errorLink: z.string(),
    errorId: z.string(),
    errorCauses: z.array(z.object({ errorSummary: z.string() })),
  }),
  'OktaError',
);
export type OktaError = z.infer<typeof oktaError>;

/**
 * The error codes this service answers with (Okta's codes and meanings):
 * E0000001 validation failed, E0000003 body not well-formed, E0000004 authentication failed (wrong
 * password, unknown, locked or inactive user, bad activation token), E0000007 not found (factor),
 * E0000009 internal error, E0000011 invalid or expired state token, E0000014 update of credentials failed
 * (password rule; the rule is in errorCauses), E0000047 rate limited (429, with X-Rate-Limit-* and
 * Retry-After), E0000068 invalid passcode, E0000079 not allowed in the current state, E0000105 bad or
 * used recovery token. A code that could not be delivered is 503 E0000009 with Retry-After.
 */
export const oktaErrorCodes = {
  validation: 'E0000001',
  malformed: 'E0000003',
  authenticationFailed: 'E0000004',
  notFound: 'E0000007',
  internal: 'E0000009',
  invalidToken: 'E0000011',
  credentialsUpdateFailed: 'E0000014',
  rateLimited: 'E0000047',
  invalidPasscode: 'E0000068',
  wrongState: 'E0000079',
  invalidRecoveryToken: 'E0000105',
} as const;

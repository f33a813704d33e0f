import { auditSignIn } from '../../../session/auth-audit';
import { primaryAuthentication } from '../../../session/api/authn';
import { identityFailureOf } from '../../../session/api/identity-failure';
import { completeSignIn } from '../../../session/sign-in';
import { normaliseEmail } from '@portal/contracts/field-rules';
import type { MessageKey } from './page-messages';

/*
 * One sign-in attempt of the login page: the identity call, the next step, the audit of a failure. The
 * page loads this module (with the identity API's contracts) when the customer starts on the form, not
 * to show the page: the sign-in page is the first page most customers open, often on a slow connection.
 */

export type LoginAttemptResult =
  /** The journey goes on (verification page, or the provider's redirect): keep the spinner. */
  | { kind: 'continuing' }
  /** Stay on the page: the password is cleared and the message with this key shows. */
  | { kind: 'problem'; key: MessageKey };

/** The message shown for a provider status the journey cannot continue from. */
export function messageKeyForStatus(providerStatus: string): MessageKey {
  switch (providerStatus) {
    case 'LOCKED_OUT':
      return 'lockedOutMessage';
    case 'PASSWORD_EXPIRED':
      return 'passwordExpiredMessage';
    default:
      return 'unsupportedStatusMessage';
  }
}

export async function attemptSignIn(
  email: string,
  password: string,
  verifyPath: string,
): Promise<LoginAttemptResult> {
  try {
    const answer = await primaryAuthentication(normaliseEmail(email), password);
    const outcome = await completeSignIn(answer, { verifyPath });
    if (outcome.kind !== 'unsupported') return { kind: 'continuing' };
    auditSignIn({ isSuccess: false, failureReason: 'Authentication failure' });
    return { kind: 'problem', key: messageKeyForStatus(outcome.providerStatus) };
  } catch (error) {
    const failure = identityFailureOf(error);
    auditSignIn({
      isSuccess: false,
      failureReason: failure === 'network' ? 'Network communication problem' : 'Authentication failure',
    });
    if (failure === 'wrongCredentials') return { kind: 'problem', key: 'wrongCredentialsMessage' };
    if (failure === 'rateLimited') return { kind: 'problem', key: 'tooManyAttemptsMessage' };
    return { kind: 'problem', key: 'apiError' };
  }
}

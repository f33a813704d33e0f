import { ApiError } from '../../../lib/api-client';
import { identityFailureOf } from '../../../session/api/identity-failure';
import { normaliseEmail } from '@portal/contracts/field-rules';
import { redeemUnlockToken } from '../api/recovery-token';
import { requestUnlockEmail } from '../api/recovery-unlock';
import type { MessageKey } from './page-messages';

/*
 * Self-service unlock from the sign-in page: asking for the emailed link, and the link's landing
 * (/login?unlock=<token>). Loaded with import() when needed, like the sign-in call.
 */

/** Asks for an unlock link for `email`; the message to show (the same whether or not an email went). */
export async function askForUnlockLink(email: string): Promise<MessageKey> {
  try {
    await requestUnlockEmail(normaliseEmail(email));
    return 'unlockSentMessage';
  } catch (error) {
    return identityFailureOf(error) === 'rateLimited' ? 'tooManyAttemptsMessage' : 'apiError';
  }
}

/** Redeems the token of an unlock link; the message to show. */
export async function unlockWithLink(token: string): Promise<{ unlocked: boolean; key: MessageKey }> {
  try {
    const answer = await redeemUnlockToken(token);
    if (answer.status === 'UNAUTHENTICATED' && answer.recoveryType === 'UNLOCK') {
      return { unlocked: true, key: 'unlockedMessage' };
    }
    return { unlocked: false, key: 'unlockLinkInvalidMessage' };
  } catch (error) {
    if (identityFailureOf(error) === 'rateLimited') return { unlocked: false, key: 'tooManyAttemptsMessage' };
    // 403 E0000105 (or a malformed token, 400): the link is no good. Anything else: try again later.
    if (error instanceof ApiError && (error.status === 403 || error.status === 400)) {
      return { unlocked: false, key: 'unlockLinkInvalidMessage' };
    }
    return { unlocked: false, key: 'apiError' };
  }
}

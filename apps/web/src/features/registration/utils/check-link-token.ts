import type { AuthnTransaction } from '@portal/contracts/identity';
import { ApiError } from '../../../lib/api-client';
import { exchangeActivationToken } from '../api/authn';
import { exchangeRecoveryToken } from '../api/recovery-token';

/**
 * The password page's first step (Okta's classic Authentication API): exchange the link's token for a
 * PASSWORD_RESET transaction (api/authn.ts or api/recovery-token.ts), then set the new password in it
 * (api/reset-password.ts). Failures are handed back; the page decides (bad link, password refused, error
 * fallback).
 */

export type PasswordMode = 'activation' | 'recovery';

/** A transaction waiting for its new password. */
export interface PasswordResetTransaction {
  stateToken: string;
  /** The identity user id (oktaUserId). */
  userId: string;
  /** ISO 8601: when the state token stops working. */
  expiresAt: string;
}

type TokenCheck =
  | { kind: 'ready'; transaction: PasswordResetTransaction }
  /** The provider answered another status (a real Okta org may): the sign-in layer takes it on. */
  | { kind: 'other'; answer: AuthnTransaction }
  /** Unknown, expired, used or replaced token. */
  | { kind: 'badToken' };

/** Throws for failures other than a refused token (no answer, service fault, throttling). */
export async function checkLinkToken(mode: PasswordMode, token: string): Promise<TokenCheck> {
  let answer: AuthnTransaction;
  try {
    answer =
      mode === 'activation' ? await exchangeActivationToken(token) : await exchangeRecoveryToken(token);
  } catch (error) {
    // 401 E0000004 (activation) and 403 E0000105 (recovery) say the link is no good; 400 a malformed one.
    if (error instanceof ApiError && [400, 401, 403, 404].includes(error.status)) return { kind: 'badToken' };
    throw error;
  }
  if (answer.status === 'PASSWORD_RESET') {
    return {
      kind: 'ready',
      transaction: {
        stateToken: answer.stateToken,
        userId: answer._embedded.user.id,
        expiresAt: answer.expiresAt,
      },
    };
  }
  return { kind: 'other', answer };
}

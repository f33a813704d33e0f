import {
  authnCall,
  recoveryTokenCall,
  resetPasswordCall,
  type AuthnTransaction,
} from '@portal/contracts/identity';
import { ApiError, callApi } from '../../../lib/api-client';

/**
 * The identity provider calls of the password page (Okta's classic Authentication API): exchange the link's
 * token for a PASSWORD_RESET transaction, then set the new password in it. Failures are handed back; the
 * page decides (bad link, password refused, error fallback).
 */

const noDefaultHandling = { handleError: () => undefined };

export type PasswordMode = 'activation' | 'recovery';

/** A transaction waiting for its new password. */
export interface PasswordResetTransaction {
  stateToken: string;
  /** The identity user id (oktaUserId). */
  userId: string;
  /** ISO 8601: when the state token stops working. */
  expiresAt: string;
}

export type TokenCheck =
  | { kind: 'ready'; transaction: PasswordResetTransaction }
  /** The provider answered another status (a real Okta org may): the sign-in layer takes it on. */
  | { kind: 'other'; answer: AuthnTransaction }
  /** Unknown, expired, used or replaced token. */
  | { kind: 'badToken' };

/**
 * Activation: POST {orgUrl}/api/v1/authn {token}. Recovery: POST /api/v1/authn/recovery/token
 * {recoveryToken}. Throws for failures other than a refused token (no answer, service fault, throttling).
 */
export async function checkLinkToken(mode: PasswordMode, token: string): Promise<TokenCheck> {
  let answer: AuthnTransaction;
  try {
    answer =
      mode === 'activation'
        ? await callApi(authnCall, { body: { token }, ...noDefaultHandling })
        : await callApi(recoveryTokenCall, { body: { recoveryToken: token }, ...noDefaultHandling });
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

/** POST /api/v1/authn/credentials/reset_password {stateToken, newPassword}. */
export function setNewPassword(stateToken: string, newPassword: string): Promise<AuthnTransaction> {
  return callApi(resetPasswordCall, { body: { stateToken, newPassword }, ...noDefaultHandling });
}

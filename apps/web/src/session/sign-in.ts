import { sessionStatusOf, toSignInResult, type AuthnTransaction } from '@portal/contracts/identity';
import { navigateTo } from '../lib/app-navigation';
import { knownTransaction, type AuthnAnswer } from './api/authn-answer';
import type { VerifiedWith } from './session-machine';
import { applySessionEvent, getSessionData } from './session-store';
import { beginTokenExchange } from './tokens';

/** The content paths of the verification and challenge pages (content `nextUrl` of login and verify). */
const VERIFY_PAGE_PATH = '/login/verify';
const CHALLENGE_PAGE_PATH = '/login/verify/challenge';

export type SignInOutcome =
  /** SUCCESS: the token exchange has started; the page is being replaced by the provider's redirect. */
  | { kind: 'redirecting' }
  /** MFA_REQUIRED: session data stored; navigated to the verification page (unless told not to). */
  | { kind: 'mfaRequired'; path: string }
  /** MFA_CHALLENGE: a code is on its way; navigated to the challenge page (unless told not to). */
  | { kind: 'mfaChallenge'; path: string }
  /**
   * Any other provider status (LOCKED_OUT, PASSWORD_EXPIRED, PASSWORD_RESET, ...): nothing stored, nothing
   * navigated. The page shows a clear message and a way forward.
   */
  | { kind: 'unsupported'; providerStatus: string };

export interface CompleteSignInOptions {
  /** Where MFA_REQUIRED goes (default /login/verify; the login page passes its content nextUrl). */
  verifyPath?: string;
  /** Where MFA_CHALLENGE goes (default /login/verify/challenge). */
  challengePath?: string;
  /** Navigate for MFA_REQUIRED / MFA_CHALLENGE (default true). */
  navigate?: boolean;
  /** How the step that ended in SUCCESS was done, when not a code sent to a phone (the login audit's). */
  method?: VerifiedWith;
}

/**
 * Takes an identity answer (primary authentication, a set password, a verified code) to its next step
 * (spec section 4): SUCCESS with a sessionToken -> token exchange (then, at /login/callback, the login
 * audit event and the next address); MFA_REQUIRED -> session data stored and the verification page;
 * anything else -> 'unsupported' for the page to explain.
 */
export async function completeSignIn(
  answer: AuthnAnswer,
  options: CompleteSignInOptions = {},
): Promise<SignInOutcome> {
  const navigate = options.navigate ?? true;
  const status = sessionStatusOf(answer.status);
  const tx: AuthnTransaction | null = knownTransaction(answer);
  if (!tx) return { kind: 'unsupported', providerStatus: answer.status };

  if (status === 'success' && tx.status === 'SUCCESS') {
    applySessionEvent(options.method ? { type: 'verified', method: options.method } : { type: 'verified' });
    await beginTokenExchange(tx.sessionToken);
    return { kind: 'redirecting' };
  }
  // MFA_ENROLL (no factor to verify with; an SDK sets up an app there, decision 023): the verify page
  // with nothing to choose, which tells the customer to call us, as before the authn API could enrol.
  if (tx.status === 'MFA_ENROLL') {
    applySessionEvent({
      type: 'mfaRequired',
      stateToken: tx.stateToken,
      factors: [],
      oktaUserId: tx._embedded.user.id,
    });
    const path = options.verifyPath ?? VERIFY_PAGE_PATH;
    if (navigate) navigateTo(path);
    return { kind: 'mfaRequired', path };
  }
  if (status === 'mfaRequired' && tx.status === 'MFA_REQUIRED') {
    const result = toSignInResult(tx);
    applySessionEvent({
      type: 'mfaRequired',
      stateToken: tx.stateToken,
      factors: result.factors,
      oktaUserId: tx._embedded.user.id,
    });
    const path = options.verifyPath ?? VERIFY_PAGE_PATH;
    if (navigate) navigateTo(path);
    return { kind: 'mfaRequired', path };
  }
  // A passkey's challenge (webauthn) is answered by the page that asked for it (passkey-step.ts).
  if (
    status === 'mfaChallenge' &&
    tx.status === 'MFA_CHALLENGE' &&
    tx._embedded.factor.factorType !== 'webauthn'
  ) {
    const factor = tx._embedded.factor;
    if (getSessionData() === null) {
      applySessionEvent({
        type: 'mfaRequired',
        stateToken: tx.stateToken,
        factors: [],
        oktaUserId: tx._embedded.user.id,
      });
    }
    applySessionEvent({
      type: 'challengeSent',
      stateToken: tx.stateToken,
      factorId: factor.id,
      factorType: factor.factorType,
      phoneNumber: factor.profile.phoneNumber,
      landlineIsAMobile: factor.factorType === 'call' && factor.profile.landlineIsAMobile === true,
    });
    const path = options.challengePath ?? CHALLENGE_PAGE_PATH;
    if (navigate) navigateTo(path);
    return { kind: 'mfaChallenge', path };
  }
  return { kind: 'unsupported', providerStatus: answer.status };
}

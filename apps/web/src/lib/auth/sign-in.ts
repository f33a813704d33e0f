import { toSignInResult, type AuthnTransaction } from '@portal/contracts/identity';
import { isApiCallError, NetworkError } from '../api-client';
import { navigateTo } from '../app-navigation';
import { auditSignIn } from './auth-audit';
import { isKnownTransaction, type AuthnAnswer } from './identity-api';
import { openDestination, StatusTokenError, takeWaitingDestination, type Destination } from './post-login';
import { sessionStatusOf } from './session-machine';
import { applySessionEvent, getSessionData, setAuthenticated, setSessionData } from './session-store';
import { beginTokenExchange, completeTokenExchange, type CurrentUser } from './tokens';

/** The content paths of the verification and challenge pages (content `nextUrl` of login and verify). */
export const VERIFY_PAGE_PATH = '/login/verify';
export const CHALLENGE_PAGE_PATH = '/login/verify/challenge';

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
  if (!isKnownTransaction(answer)) return { kind: 'unsupported', providerStatus: answer.status };
  const tx: AuthnTransaction = answer;

  if (status === 'success' && tx.status === 'SUCCESS') {
    applySessionEvent({ type: 'verified' });
    await beginTokenExchange(tx.sessionToken);
    return { kind: 'redirecting' };
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
  if (status === 'mfaChallenge' && tx.status === 'MFA_CHALLENGE') {
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

export type CallbackResult =
  { ok: true; user: CurrentUser; destination: Destination } | { ok: false; reason: 'network' | 'refused' };

/**
 * /login/callback: redeems the authorization code for tokens, records the login event, and works out the
 * next address (RelayState, then redirect_url with its status token, else the marketing step at the
 * account root with status marketingPreferences). Does not navigate; `followCallback` does.
 */
export async function handleLoginCallback(accountRootPage: string, url?: string): Promise<CallbackResult> {
  const before = getSessionData();
  let user: CurrentUser;
  try {
    user = await completeTokenExchange(url);
  } catch (error) {
    const network = error instanceof NetworkError || (error instanceof TypeError && !isApiCallError(error));
    auditSignIn({
      isSuccess: false,
      failureReason: network ? 'Network communication problem' : 'Authentication failure',
      mfaSendMethod: before?.factorType,
    });
    setSessionData(null);
    setAuthenticated(false);
    return { ok: false, reason: network ? 'network' : 'refused' };
  }

  setAuthenticated(true);
  auditSignIn({ isSuccess: true, user, mfaSendMethod: before?.factorType });

  let waiting: Destination | null = null;
  try {
    waiting = await takeWaitingDestination(user.customerId);
  } catch (error) {
    // Signed in all the same: the customer continues to the next step rather than a dead end.
    if (error instanceof StatusTokenError) console.error(error.message);
    else throw error;
  }

  const next = waiting ? 'loggedIn' : 'marketingPreferences';
  if (before?.status === 'success') applySessionEvent({ type: 'tokensReceived', next });
  else setSessionData({ status: next, ...(before?.oktaUserId ? { oktaUserId: before.oktaUserId } : {}) });
  return { ok: true, user, destination: waiting ?? { kind: 'internal', path: accountRootPage } };
}

/** Opens the callback's destination, replacing /login/callback in the history. */
export function followDestination(destination: Destination): void {
  openDestination(destination, (path) => navigateTo(path, { replace: true }));
}

/** The marketing step is done (or was done before): status loggedIn. */
export function markLoggedIn(): void {
  const data = getSessionData();
  if (data?.status === 'marketingPreferences' || data?.status === 'loggedIn')
    applySessionEvent({ type: 'marketingDone' });
  else setSessionData({ status: 'loggedIn', ...(data?.oktaUserId ? { oktaUserId: data.oktaUserId } : {}) });
}

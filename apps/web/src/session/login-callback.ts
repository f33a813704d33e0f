import { isApiCallError, NetworkError } from '../lib/api-client';
import { navigateTo } from '../lib/app-navigation';
import { auditSignIn } from './auth-audit';
import { openDestination, StatusTokenError, takeWaitingDestination, type Destination } from './post-login';
import { applySessionEvent, getSessionData, setAuthenticated, setSessionData } from './session-store';
import { completeTokenExchange, type CurrentUser } from './tokens';

/*
 * The end of a sign-in at /login/callback, apart from sign-in.ts so that the callback route does not
 * download the identity API and its contracts.
 */

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
      mfaSendMethod: before?.verifiedWith,
    });
    setSessionData(null);
    setAuthenticated(false);
    return { ok: false, reason: network ? 'network' : 'refused' };
  }

  setAuthenticated(true);
  auditSignIn({ isSuccess: true, user, mfaSendMethod: before?.verifiedWith });

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

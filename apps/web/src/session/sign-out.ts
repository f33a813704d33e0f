import { currentPath, navigateTo } from '../lib/app-navigation';
import { removeSession, sessionKeys, writeSession } from './storage-keys';
import { broadcast } from './cross-tab';
import { keepsAddressForAfterLogin } from './guards';
import { getAuthSnapshot, setAuthenticated, setSessionData } from './session-store';
import { getCurrentUser, removeTokens, resetRenewalGuard, revokeRefreshToken } from './tokens';

/** Why the customer was signed out; the sign-in page says so (content signedOutMessage / sessionExpiredMessage). */
export type SignOutReason =
  /** The customer pressed sign out. */
  | 'user'
  /** The inactivity modal ran out or the customer chose to leave. */
  | 'idle'
  /** The session could not be kept alive (renewal refused, renewal storm): its time ran out. */
  | 'expired'
  /**
   * The portal refused this browser's sign-in because it was ended elsewhere: "sign out of every other
   * device", a password change or reset, or the online account closed, on another device or browser.
   */
  | 'endedElsewhere'
  /** A step of the sign-in journey failed (e.g. a code could not be re-sent): start again. */
  | 'journeyFailed'
  /** The identity provider refused further attempts for now (429): wait, then start again. */
  | 'tooManyAttempts'
  /** Left the sign-in journey while signed out: its state is cleared quietly. */
  | 'journeyLeft';

export interface SignOutOptions {
  reason?: SignOutReason;
  /** Where to go afterwards (default /login). */
  loginPath?: string;
  /** Navigate to the sign-in page (default true, except for journeyLeft). */
  navigate?: boolean;
  /** Set when another tab signed out: do not tell the others again, do not call the provider again. */
  fromOtherTab?: boolean;
}

/** Session keys that belong to one customer's visit and must not outlive it. */
const perCustomerKeys = [
  sessionKeys.authState,
  sessionKeys.relayState,
  sessionKeys.redirectUrl,
  sessionKeys.redirectAfterLogin,
  sessionKeys.notificationId,
  sessionKeys.registrationCompletion,
  sessionKeys.userData,
  sessionKeys.sharedView,
] as const;

/** Longest we wait for the provider before clearing locally anyway: signing out must never hang. */
const PROVIDER_SIGN_OUT_TIMEOUT_MS = 5000;

let lastNotice: SignOutReason | null = null;
let inFlight: Promise<void> | null = null;

/** The reason of the sign-out that just happened (the sign-in page shows the matching message). */
export function peekSignOutNotice(): SignOutReason | null {
  return lastNotice;
}

/** The sign-in page has shown the notice. */
export function clearSignOutNotice(): void {
  lastNotice = null;
}

/*
 * The identity calls (and their contracts) load only when a sign-out has something to end at the
 * provider: every page carries this module (the header's sign-out button), few sign-outs need them.
 */
const cancelApi = () => import('./api/cancel');
const endSessionApi = () => import('./api/end-current-session');

async function cancelOpenTransaction(stateToken: string): Promise<void> {
  try {
    await (await cancelApi()).cancelTransaction(stateToken);
  } catch {
    console.warn('Cancelling the sign-in transaction failed');
  }
}

async function endAtProvider(): Promise<void> {
  // The contact centre's read-only view (issue 41) has no provider session: its own sign-in ends.
  if (getCurrentUser()?.onBehalfOf?.startsWith('staff:')) {
    await import('./shared-view-calls')
      .then((calls) => calls.endSharedView())
      .catch(() => console.warn('Ending the read-only view failed'));
    return;
  }
  const endSession = endSessionApi().then((api) => api.endProviderSession());
  const results = await Promise.allSettled([endSession, revokeRefreshToken()]);
  for (const r of results) if (r.status === 'rejected') console.warn('Provider sign-out step failed');
}

/** Waits for the provider steps, but never longer than PROVIDER_SIGN_OUT_TIMEOUT_MS. */
async function bounded(work: Promise<unknown>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, PROVIDER_SIGN_OUT_TIMEOUT_MS);
  });
  await Promise.race([work, timeout]);
  clearTimeout(timer);
}

async function run(options: SignOutOptions): Promise<void> {
  const reason = options.reason ?? 'user';
  const { isAuthenticated, data } = getAuthSnapshot();
  const hadTokens = isAuthenticated || getCurrentUser() !== null;
  const here = currentPath();

  // What the customer was typing stays in this browser for their next sign-in (issue 40), before the
  // session (and with it the forms) goes.
  // (The module is the forms' own: loaded here only for an idle sign-out, so the start-up code carries
  // none of it.)
  const keptDraftsAt =
    reason === 'idle'
      ? await import('./drafts').then(
          (d) => d.keepOpenDrafts(here),
          () => null,
        )
      : null;

  if (!options.fromOtherTab) {
    const ends: Promise<void>[] = [];
    // An open sign-in transaction is ended so its state token cannot be replayed.
    if (data?.stateToken) ends.push(cancelOpenTransaction(data.stateToken));
    // The provider session (and its refresh tokens) ends for the whole browser.
    if (hadTokens) ends.push(endAtProvider());
    await bounded(Promise.all(ends));
  }
  try {
    await removeTokens();
  } catch {
    console.warn('Removing stored tokens failed');
  }
  // Leaving the journey drops only its own state: addresses waiting for after sign-in stay.
  for (const key of reason === 'journeyLeft' ? [sessionKeys.authState] : perCustomerKeys) removeSession(key);
  setSessionData(null);
  setAuthenticated(false);
  resetRenewalGuard();

  // Signed out by inactivity on a policy, cover, documents or bills page: come back to it after sign-in.
  if (
    (reason === 'idle' || reason === 'expired' || reason === 'endedElsewhere') &&
    keepsAddressForAfterLogin(here.split('?')[0] ?? '')
  ) {
    writeSession(sessionKeys.redirectAfterLogin, here);
  }
  // ... and after it, back to the form that kept what they typed.
  if (keptDraftsAt) writeSession(sessionKeys.redirectAfterLogin, keptDraftsAt);
  if (hadTokens && !options.fromOtherTab && reason !== 'journeyLeft')
    broadcast({ type: 'signed-out', reason });

  const navigate = options.navigate ?? reason !== 'journeyLeft';
  if (navigate) {
    lastNotice = reason;
    navigateTo(options.loginPath ?? '/login', { replace: true });
  }
}

/**
 * Signs the customer out: ends any open sign-in transaction, ends the identity provider's session (which
 * revokes its refresh tokens) and revokes this tab's refresh token, forgets the tokens and every
 * per-customer key, tells the other tabs, and opens the sign-in page. Local state is cleared whatever the
 * provider answers. Accepts the sign-in path as a plain string for the shell's header button.
 */
export function signOut(options: SignOutOptions | string = {}): Promise<void> {
  const resolved = typeof options === 'string' ? { loginPath: options } : options;
  // Two triggers at once (the idle modal in two tabs, a click during renewal failure) sign out once.
  inFlight ??= run(resolved).finally(() => {
    inFlight = null;
  });
  return inFlight;
}

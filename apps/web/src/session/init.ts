import { setAccessTokenProvider, setSessionEndedHandler } from '../lib/api-client';
import { onCrossTabMessage } from './cross-tab';
import { signOut, type SignOutReason } from './sign-out';
import { getAuthSnapshot, setAuthenticated } from './session-store';
import { TokenRenewalStormError } from './renewal-guard';
import {
  getAccessToken,
  loadStoredUser,
  removeTokens,
  renewTokens,
  startTokenRenewal,
  tokensExpired,
} from './tokens';

let stop: (() => void) | undefined;

/**
 * Starts the session layer once page init has loaded: registers the access token with the API client,
 * loads this tab's stored tokens (renewing them if they expired while the tab was closed or asleep), keeps
 * them renewed, and follows sign-outs in other tabs. A flag that says "signed in" without usable tokens
 * is corrected to signed out before the first guard reads it.
 */
export async function initAuth(): Promise<void> {
  try {
    await start();
  } catch (error) {
    // Never stops the portal from starting: the customer is simply signed out and can sign in again.
    console.error(error instanceof Error ? error.message : 'The session could not be restored');
    setAuthenticated(false);
  }
}

async function start(): Promise<void> {
  stop?.();
  setAccessTokenProvider(getAccessToken);
  // A data call's token refused: the sign-in ended on the server (signed out from another device, a
  // password change or reset, the account closed elsewhere), or the token ran out. Signed out here too,
  // with the notice that says which.
  setSessionEndedHandler((cause) => {
    if (getAuthSnapshot().isAuthenticated)
      void signOut({ reason: cause === 'ended' ? 'endedElsewhere' : 'expired' });
  });

  let user = await loadStoredUser().catch(() => null);
  const { isAuthenticated } = getAuthSnapshot();
  if (!isAuthenticated && user) {
    // Tokens without the flag are left over from an interrupted sign-out: they are not a sign-in (and
    // are not worth a renewal).
    await removeTokens().catch(() => undefined);
    user = null;
  } else if (user && tokensExpired(user)) {
    try {
      user = await renewTokens();
    } catch {
      user = null;
      await removeTokens().catch(() => undefined);
    }
  }
  if (isAuthenticated && !user) setAuthenticated(false);

  const stopRenewal = startTokenRenewal({
    onFailure: (error) => {
      if (error instanceof TokenRenewalStormError) console.error(error.message);
      else console.warn('Token renewal failed; signing out');
      void signOut({ reason: 'expired' });
    },
  });
  const stopCrossTab = onCrossTabMessage((message) => {
    if (message.type !== 'signed-out') return;
    if (!getAuthSnapshot().isAuthenticated) return;
    const known: readonly SignOutReason[] = ['idle', 'expired', 'endedElsewhere'];
    const reason = known.includes(message.reason as SignOutReason)
      ? (message.reason as SignOutReason)
      : 'user';
    void signOut({ reason, fromOtherTab: true });
  });
  stop = () => {
    stopRenewal();
    stopCrossTab();
  };
}

/** Stops renewal and cross-tab listening (tests). */
export function stopAuth(): void {
  stop?.();
  stop = undefined;
  setAccessTokenProvider(undefined);
  setSessionEndedHandler(undefined);
}

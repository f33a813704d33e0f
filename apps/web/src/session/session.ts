import { signOut } from './sign-out';
import { getAuthSnapshot, setAuthenticated, subscribeAuth, useAuthSnapshot } from './session-store';

/**
 * The signed-in state the shell needs (header, guards, customer data clean-up), backed by the session
 * layer in this folder: the authenticated flag ('1' / '0' in session storage), the journey's session data and
 * the OpenID tokens. signOut ends the provider session, revokes tokens and clears every tab.
 */
export interface SessionSnapshot {
  isAuthenticated: boolean;
}

export function getSession(): SessionSnapshot {
  return getAuthSnapshot();
}

export const subscribeSession = subscribeAuth;

export { setAuthenticated, signOut };

export function useSession(): SessionSnapshot & {
  /** Signed in, at the first sign-in's marketing step (status marketingPreferences, spec section 4). */
  inMarketingStep: boolean;
  signOut: typeof signOut;
} {
  const { isAuthenticated, data } = useAuthSnapshot();
  return {
    isAuthenticated,
    inMarketingStep: isAuthenticated && data?.status === 'marketingPreferences',
    signOut,
  };
}

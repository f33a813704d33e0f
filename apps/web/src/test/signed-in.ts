import { setAccessTokenProvider } from '../lib/api-client';
import { setPageInit } from '../lib/page-init';
import type { SessionData } from '../session/session-machine';
import { setAuthenticated, setSessionData } from '../session/session-store';
import { setTokensInMemory } from '../session/token-store';
import { getAccessToken, resetTokenClient, storeTokens } from '../session/tokens';
import { testPageInit } from './content-fixtures';
import { testAccessToken } from './fake-api/identity-scenario';

/**
 * Signs a customer in for a component test: an (unsigned) access token carrying their customer id claim,
 * in memory and given to the API client, as the session does after sign-in, with the test page settings
 * (service base URLs). The fake API reads the claim. Returns the sign-out to call after the test.
 */
export function signedInAs(customerId: string): () => void {
  const accessToken = testAccessToken({ customerId });
  setPageInit(testPageInit);
  setTokensInMemory({ access_token: accessToken, expires_at: Math.floor(Date.now() / 1000) + 600 });
  setAccessTokenProvider(() => Promise.resolve(accessToken));
  return () => {
    setTokensInMemory(null);
    setAccessTokenProvider(undefined);
    setPageInit(undefined);
  };
}

/**
 * A customer signed in as after /login/callback: tokens stored as the token client keeps them, the API
 * client given its access token, the flag '1' and the session status. `signOutForTests` undoes it.
 */
export async function signInAs(customerId: string, status: SessionData['status'] = 'marketingPreferences') {
  resetTokenClient();
  const now = Math.floor(Date.now() / 1000);
  storeTokens({
    access_token: testAccessToken({ customerId, onBehalfOf: customerId }),
    token_type: 'Bearer',
    scope: 'openid portal.customer',
    profile: {
      sub: '00u-david',
      iss: testPageInit.identity.issuer,
      aud: 'portal-spa',
      exp: now + 600,
      iat: now,
    },
    expires_at: now + 600,
  });
  setAccessTokenProvider(getAccessToken);
  setAuthenticated(true);
  setSessionData({ status });
}

export function signOutForTests() {
  resetTokenClient();
  setAccessTokenProvider(undefined);
}

import { setAccessTokenProvider } from '../lib/api-client';
import { setPageInit } from '../lib/page-init';
import { setTokensInMemory } from '../session/token-store';
import { testPageInit } from './content-fixtures';

const base64url = (value: object) =>
  btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');

/**
 * Signs a customer in for a component test: an (unsigned) access token carrying their customer id claim,
 * in memory and given to the API client, as the session does after sign-in, with the test page settings
 * (service base URLs). The fake API reads the claim. Returns the sign-out to call after the test.
 */
export function signedInAs(customerId: string): () => void {
  const accessToken = `${base64url({ alg: 'none' })}.${base64url({ customerId, exp: Math.floor(Date.now() / 1000) + 600 })}.x`;
  setPageInit(testPageInit);
  setTokensInMemory({ access_token: accessToken, expires_at: Math.floor(Date.now() / 1000) + 600 });
  setAccessTokenProvider(() => Promise.resolve(accessToken));
  return () => {
    setTokensInMemory(null);
    setAccessTokenProvider(undefined);
    setPageInit(undefined);
  };
}

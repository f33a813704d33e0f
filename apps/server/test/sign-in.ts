/**
 * Signs a demo customer in the way the SPA does, over the real APIs: Okta-style authn with the demo
 * password, the customer's factor (text to the mobile, else a voice call to the landline), the code read
 * from the dev outbox, the one-time sessionToken, then the OpenID authorize (PKCE S256) and token
 * endpoints. Answers the access token and the customer id from its claim.
 */
import { decodeJwt } from 'jose';
import { demoCustomers } from '../src/db/demo/customers';
import { authorize, pkcePair, tokenRequest } from './oidc-support';
import type { TestContext } from './helpers';

export interface SignedIn {
  accessToken: string;
  customerId: string;
  /** `Authorization: Bearer ...`, ready for app.inject headers. */
  authorization: string;
  /** The one-time token the code step gave, spent on the authorize step. */
  sessionToken: string;
  /** The refresh token of the sign-in's grant. */
  refreshToken: string;
}

/** The code in the newest outbox message to `to`: a 5 or 6 digit run, or digits read out one by one. */
async function latestCode(t: TestContext, to: string): Promise<string> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/dev/outbox/api?to=${encodeURIComponent(to)}&limit=1`,
  });
  if (res.statusCode !== 200) throw new Error(`dev outbox answered ${res.statusCode}`);
  const newest = res.json<{ messages: Array<{ body: string }> }>().messages[0];
  if (!newest) throw new Error(`no message to ${to} in the outbox`);
  const plain = /\b(\d{5,6})\b/.exec(newest.body)?.[1];
  if (plain) return plain;
  const spoken = /\d(?:[\s,.-]+\d){4,5}/.exec(newest.body)?.[0];
  if (spoken) return spoken.replace(/\D/g, '');
  throw new Error('no code in the newest outbox message');
}

async function json<T>(res: { statusCode: number; body: string; json<U>(): U }, step: string): Promise<T> {
  if (res.statusCode !== 200)
    throw new Error(`${step} answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
  return res.json<T>();
}

export async function signIn(t: TestContext, demoCustomerEmail: string): Promise<SignedIn> {
  const customer = demoCustomers.find((c) => c.email === demoCustomerEmail);
  if (!customer?.registered) throw new Error(`${demoCustomerEmail} is not a registered demo customer`);
  return signInAccount(t, { ...customer, email: demoCustomerEmail, password: customer.registered.password });
}

/** Signs in any active account as the SPA does (a test's own customer): the code by text, else by call. */
export async function signInAccount(
  t: TestContext,
  account: { email: string; password: string; mobileNumber: string | null; landlineNumber: string | null },
): Promise<SignedIn> {
  const demoCustomerEmail = account.email;
  const factorType = account.mobileNumber ? 'sms' : 'call';
  const phone = account.mobileNumber ?? account.landlineNumber;
  if (!phone) throw new Error(`${demoCustomerEmail} has no phone for a code`);

  const authn = await json<{
    status: string;
    stateToken?: string;
    sessionToken?: string;
    _embedded?: { factors?: Array<{ id: string; factorType: string }> };
  }>(
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/authn',
      payload: { username: demoCustomerEmail, password: account.password },
    }),
    'authn',
  );

  let sessionToken = authn.sessionToken;
  if (authn.status === 'MFA_REQUIRED') {
    const factor = authn._embedded?.factors?.find((f) => f.factorType === factorType);
    if (!factor || !authn.stateToken) throw new Error(`no ${factorType} factor offered`);
    const verifyUrl = `/api/v1/authn/factors/${encodeURIComponent(factor.id)}/verify`;
    await json(
      await t.app.inject({ method: 'POST', url: verifyUrl, payload: { stateToken: authn.stateToken } }),
      'factor challenge',
    );
    const passCode = await latestCode(t, phone);
    const verified = await json<{ status: string; sessionToken?: string }>(
      await t.app.inject({
        method: 'POST',
        url: verifyUrl,
        payload: { stateToken: authn.stateToken, passCode },
      }),
      'factor verify',
    );
    sessionToken = verified.sessionToken;
  }
  if (!sessionToken) throw new Error(`sign-in ended without a sessionToken (status ${authn.status})`);

  const { verifier, challenge } = pkcePair();
  const { callback } = await authorize(t, {
    sessionToken,
    prompt: 'none',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const code = callback.searchParams.get('code');
  if (!code)
    throw new Error(`authorize gave no code: ${callback.searchParams.get('error') ?? 'unknown error'}`);
  const tokens = await json<{ access_token: string; refresh_token: string }>(
    await tokenRequest(t, {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: `${t.config.publicUrl}/login/callback`,
    }),
    'token',
  );
  const claim = decodeJwt(tokens.access_token)['customerId'];
  if (typeof claim !== 'string') throw new Error('the access token has no customerId claim');
  return {
    accessToken: tokens.access_token,
    customerId: claim,
    authorization: `Bearer ${tokens.access_token}`,
    sessionToken,
    refreshToken: tokens.refresh_token,
  };
}

import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers';
import { signInTokens } from '../../../test/oidc-support';

/*
 * /v1/userinfo answers the claims of the access token's scopes only (OpenID Connect Core 5.4, as Okta
 * does): `openid` the subject; `profile` the names; `email` the address; the portal's scope the customer id.
 */
describe('userinfo by granted scope', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const userinfo = (accessToken: string) =>
    t.app.inject({
      method: 'GET',
      url: '/oauth2/default/v1/userinfo',
      headers: { authorization: `Bearer ${accessToken}` },
    });

  it('openid only: the subject, and no email, name or customer id', async () => {
    const tokens = await signInTokens(t, undefined, 'openid');
    const res = await userinfo(tokens.access_token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const claims = res.json<Record<string, unknown>>();
    expect(Object.keys(claims)).toEqual(['sub']);
    expect(typeof claims['sub']).toBe('string');
  });

  it("the portal SPA's scopes (openid portal.customer): the subject and the customer id", async () => {
    const tokens = await signInTokens(t);
    const res = await userinfo(tokens.access_token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ sub: expect.any(String), customerId: tokens.who.customerId });
  });

  it('email: the address, proved by the activation link', async () => {
    const tokens = await signInTokens(t, undefined, 'openid email');
    const res = await userinfo(tokens.access_token);
    expect(res.json()).toEqual({ sub: expect.any(String), email: tokens.who.login, email_verified: true });
  });

  it('profile: the names, and nothing of email or the customer id', async () => {
    const tokens = await signInTokens(t, undefined, 'openid profile');
    const claims = (await userinfo(tokens.access_token)).json<Record<string, unknown>>();
    expect(Object.keys(claims).sort()).toEqual(['family_name', 'given_name', 'name', 'sub']);
    expect(claims['name']).toBe(`${String(claims['given_name'])} ${String(claims['family_name'])}`);
  });

  it('every scope at once: the claims of each', async () => {
    const tokens = await signInTokens(t, undefined, 'openid profile email portal.customer');
    const claims = (await userinfo(tokens.access_token)).json<Record<string, unknown>>();
    expect(Object.keys(claims).sort()).toEqual([
      'customerId',
      'email',
      'email_verified',
      'family_name',
      'given_name',
      'name',
      'sub',
    ]);
  });

  /** The ID token's claims about the person, without those about the token itself. */
  const personClaims = (idToken: string) => {
    const about = new Set([
      'iss',
      'aud',
      'exp',
      'iat',
      'auth_time',
      'at_hash',
      'nonce',
      'amr',
      'acr',
      'sid',
      'azp',
    ]);
    return Object.fromEntries(Object.entries(decodeJwt(idToken)).filter(([name]) => !about.has(name)));
  };

  it('the ID token carries what userinfo answers for the same scopes, and no more (issue 38)', async () => {
    for (const scope of [
      'openid',
      'openid portal.customer',
      'openid email',
      'openid profile email portal.customer',
    ]) {
      const tokens = await signInTokens(t, undefined, scope);
      const answered = (await userinfo(tokens.access_token)).json<Record<string, unknown>>();
      expect({ scope, claims: personClaims(tokens.id_token) }).toEqual({ scope, claims: answered });
    }
  });
});

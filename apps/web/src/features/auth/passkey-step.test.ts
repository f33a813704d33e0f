import { factorVerifyCall, type AuthnTransaction } from '@portal/contracts/identity';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setPageInit } from '../../lib/page-init';
import { identityFailureOf } from '../../session/api/identity-failure';
import { callsTo, fakeApi, fakeCall } from '../../test/fake-api/fake-api';
import { oktaError } from '../../test/fake-api/identity-scenario';
import { testPageInit } from '../../test/content-fixtures';
import { isPasskeyCancelled, verifyWithPasskey } from './passkey-step';

/*
 * The passkey as the second step: the factor's challenge, the browser's prompt (the library that drives
 * navigator.credentials is replaced: jsdom has no authenticator), then the assertion in Okta's names.
 */

const browser = vi.hoisted(() => ({ startAuthentication: vi.fn() }));
vi.mock('@simplewebauthn/browser', () => browser);

const link = (path: string) => ({ href: `http://localhost${path}`, hints: { allow: ['POST'] } });
const user = {
  id: '00u-gareth',
  profile: {
    login: 'gareth.pryce@example.co.uk',
    firstName: 'Gareth',
    lastName: 'Pryce',
    locale: 'en_GB',
    timeZone: 'Europe/London',
  },
};
const factor = {
  id: 'wan-1',
  factorType: 'webauthn' as const,
  provider: 'FIDO' as const,
  vendorName: 'FIDO' as const,
  profile: { name: 'My phone', credentialId: 'cred-1' },
};
const challenge: AuthnTransaction = {
  status: 'MFA_CHALLENGE',
  stateToken: 'state-2',
  expiresAt: '2030-01-01T00:00:00.000Z',
  factorResult: 'CHALLENGE',
  _embedded: {
    user,
    factor: {
      ...factor,
      _embedded: {
        challenge: {
          challenge: 'the-challenge',
          userVerification: 'required',
          rpId: 'localhost',
          timeout: 300000,
          allowCredentials: [
            { id: 'cred-1', type: 'public-key', transports: ['internal'] },
            { id: 'cred-2', type: 'public-key' },
          ],
        },
      },
    },
  },
  _links: {
    next: link('/api/v1/authn/factors/wan-1/verify'),
    prev: link('/api/v1/authn/previous'),
    cancel: link('/api/v1/authn/cancel'),
  },
};
const success: AuthnTransaction = {
  status: 'SUCCESS',
  sessionToken: 'session-token',
  expiresAt: '2030-01-01T00:00:00.000Z',
  _embedded: { user },
};
const assertion = {
  id: 'cred-2',
  rawId: 'cred-2',
  type: 'public-key',
  response: {
    clientDataJSON: 'Y2xpZW50',
    authenticatorData: 'YXV0aA',
    signature: 'c2ln',
    userHandle: 'dXNlcg',
  },
  clientExtensionResults: {},
};

describe('verifyWithPasskey', () => {
  afterEach(() => setPageInit(undefined));
  beforeEach(() => {
    setPageInit(testPageInit);
    browser.startAuthentication.mockReset();
    fakeApi.use(
      fakeCall(factorVerifyCall, ({ body }) =>
        body.clientData === undefined ? { status: 200, body: challenge } : { status: 200, body: success },
      ),
    );
  });

  it("asks for the challenge, lets the browser answer with any of the customer's passkeys, and answers SUCCESS", async () => {
    browser.startAuthentication.mockResolvedValue(assertion);
    const answer = await verifyWithPasskey('state-1', 'wan-1');
    expect(answer).toMatchObject({ status: 'SUCCESS', sessionToken: 'session-token' });

    expect(browser.startAuthentication).toHaveBeenCalledWith({
      optionsJSON: {
        challenge: 'the-challenge',
        rpId: 'localhost',
        timeout: 300000,
        userVerification: 'required',
        allowCredentials: [
          { id: 'cred-1', type: 'public-key', transports: ['internal'] },
          { id: 'cred-2', type: 'public-key' },
        ],
      },
    });
    const calls = callsTo(factorVerifyCall);
    expect(calls.map((c) => c.params.factorId)).toEqual(['wan-1', 'wan-1']);
    expect(calls[0]!.body).toEqual({ stateToken: 'state-1' });
    expect(calls[1]!.body).toEqual({
      stateToken: 'state-2',
      clientData: 'Y2xpZW50',
      authenticatorData: 'YXV0aA',
      signatureData: 'c2ln',
      credentialId: 'cred-2',
    });
  });

  it('rejects as a wrong code when the server refuses the passkey', async () => {
    browser.startAuthentication.mockResolvedValue(assertion);
    fakeApi.use(
      fakeCall(factorVerifyCall, ({ body }) =>
        body.clientData === undefined
          ? { status: 200, body: challenge }
          : { status: 403, body: oktaError('E0000068', 'Invalid Passcode/Answer') },
      ),
    );
    const failure = await verifyWithPasskey('state-1', 'wan-1').catch((error: unknown) => error);
    expect(identityFailureOf(failure)).toBe('wrongCode');
  });

  it("rejects with the browser's refusal when the customer cancels, and sends no assertion", async () => {
    const cancelled = Object.assign(new Error('The operation either timed out or was not allowed.'), {
      name: 'NotAllowedError',
    });
    browser.startAuthentication.mockRejectedValue(cancelled);
    const failure = await verifyWithPasskey('state-1', 'wan-1').catch((error: unknown) => error);
    expect(isPasskeyCancelled(failure)).toBe(true);
    expect(callsTo(factorVerifyCall)).toHaveLength(1);
  });
});

import { describe, expect, it } from 'vitest';
import {
  authnBody,
  authnTransaction,
  codeLengthOf,
  factorVerifyBody,
  oktaError,
  sessionStatusOf,
  toMfaVerifyResult,
  toSignInResult,
  type AuthnTransaction,
} from './identity';

const link = (href: string, name?: string) => ({
  ...(name ? { name } : {}),
  href,
  hints: { allow: ['POST'] },
});
const user = {
  id: '00uAbCdEfGhIjKlMnOpQ',
  passwordChanged: '2026-03-03T14:05:00.000Z',
  profile: {
    login: 'a@example.org',
    firstName: 'Ann',
    lastName: 'Lee',
    locale: 'en_GB',
    timeZone: 'Europe/London',
  },
};
const factor = (id: string, factorType: 'sms' | 'call', phoneNumber: string, landlineIsAMobile: boolean) => ({
  id,
  factorType,
  provider: 'OKTA' as const,
  vendorName: 'OKTA' as const,
  profile: { phoneNumber, landlineIsAMobile },
  _links: { verify: link(`https://id.example.org/api/v1/authn/factors/${id}/verify`) },
});

const mfaRequired: AuthnTransaction = {
  status: 'MFA_REQUIRED',
  stateToken: '00state',
  expiresAt: '2026-11-21T10:10:00.000Z',
  _embedded: {
    user,
    factors: [
      factor('smsA', 'sms', '+44 XXXX XXX123', false),
      factor('clfB', 'call', '+44 XXXX XXX456', false),
    ],
  },
  _links: { cancel: link('https://id.example.org/api/v1/authn/cancel') },
};

describe('identity contract', () => {
  it('parses the Okta transactions the server sends', () => {
    expect(authnTransaction.parse(mfaRequired)).toEqual(mfaRequired);
    expect(authnTransaction.safeParse({ status: 'MFA_REQUIRED', stateToken: 'x' }).success).toBe(false);
    expect(authnTransaction.parse({ status: 'UNAUTHENTICATED' })).toEqual({ status: 'UNAUTHENTICATED' });
    expect(
      oktaError.parse({
        errorCode: 'E0000004',
        errorSummary: 'Authentication failed',
        errorLink: 'E0000004',
        errorId: 'abc',
        errorCauses: [],
      }).errorCode,
    ).toBe('E0000004');
  });

  it('accepts either credentials or an activation token, and any text as a passcode', () => {
    expect(authnBody.parse({ username: ' a@example.org ', password: 'p', options: {} })).toEqual({
      username: 'a@example.org',
      password: 'p',
    });
    expect(authnBody.parse({ token: 'tok' })).toEqual({ token: 'tok' });
    expect(authnBody.safeParse({ username: 'a@example.org' }).success).toBe(false);
    expect(factorVerifyBody.parse({ stateToken: 's', passCode: 'abc' })).toEqual({
      stateToken: 's',
      passCode: 'abc',
    });
    expect(factorVerifyBody.safeParse({ stateToken: 's', passCode: '1'.repeat(21) }).success).toBe(false);
  });

  it('flattens MFA_REQUIRED into the spec sign-in result', () => {
    expect(toSignInResult(mfaRequired)).toEqual({
      status: 'MFA_REQUIRED',
      stateToken: '00state',
      factors: [
        { id: 'smsA', type: 'sms', phoneNumber: '+44 XXXX XXX123' },
        // Which line a call goes to, from our `landlineIsAMobile` (issue 38).
        { id: 'clfB', type: 'call', phoneNumber: '+44 XXXX XXX456', line: 'landline' },
      ],
    });
    const { landlineIsAMobile: _unsaid, ...okta } = mfaRequired._embedded.factors[1]!.profile as {
      phoneNumber: string;
      landlineIsAMobile?: boolean;
    };
    // A real Okta org does not say: no line.
    const fromOkta = toSignInResult({
      ...mfaRequired,
      _embedded: {
        ...mfaRequired._embedded,
        factors: [{ ...mfaRequired._embedded.factors[1]!, profile: okta }],
      },
    } as AuthnTransaction);
    expect(fromOkta.factors).toEqual([{ id: 'clfB', type: 'call', phoneNumber: '+44 XXXX XXX456' }]);
    expect(
      toSignInResult({
        status: 'SUCCESS',
        sessionToken: '20tok',
        expiresAt: '2026-11-21T10:05:00.000Z',
        _embedded: { user },
      }),
    ).toEqual({ status: 'SUCCESS', factors: [], sessionToken: '20tok' });
  });

  it("accepts an authenticator app and backup codes in MFA_REQUIRED, and carries them into the SPA's sign-in result", () => {
    const withApps: AuthnTransaction = {
      ...mfaRequired,
      _embedded: {
        user,
        factors: [
          factor('smsA', 'sms', '+44 XXXX XXX123', false),
          {
            id: 'ostC',
            factorType: 'token:software:totp',
            provider: 'GOOGLE',
            vendorName: 'GOOGLE',
            profile: { name: 'Authenticator app' },
          },
          {
            id: 'bkcD',
            factorType: 'backup_code',
            provider: 'CUSTOM',
            vendorName: 'CUSTOM',
            profile: { name: 'Backup codes', codesLeft: 9 },
          },
        ],
      },
    };
    expect(authnTransaction.parse(withApps)).toEqual(withApps);
    expect(toSignInResult(withApps).factors).toEqual([
      { id: 'smsA', type: 'sms', phoneNumber: '+44 XXXX XXX123' },
      { id: 'ostC', type: 'totp' },
      { id: 'bkcD', type: 'backup_code', codesLeft: 9 },
    ]);
    // Backup codes all used: not offered.
    const usedUp: AuthnTransaction = {
      ...withApps,
      _embedded: {
        user,
        factors: [{ ...withApps._embedded.factors[2]!, profile: { name: 'Backup codes', codesLeft: 0 } }],
      },
    } as AuthnTransaction;
    expect(toSignInResult(usedUp).factors).toEqual([]);
  });

  it('offers passkeys once, where the first of them comes in the provider order', () => {
    const passkey = (id: string, name: string) => ({
      id,
      factorType: 'webauthn' as const,
      provider: 'FIDO' as const,
      vendorName: 'FIDO' as const,
      profile: { name, credentialId: `cred-${id}` },
    });
    const withPasskeys = {
      ...mfaRequired,
      _embedded: {
        user,
        factors: [
          passkey('wanA', 'Laptop'),
          factor('smsB', 'sms', '+44 XXXX XXX123', false),
          passkey('wanC', 'Phone'),
        ],
      },
    } as AuthnTransaction;
    expect(authnTransaction.parse(withPasskeys)).toEqual(withPasskeys);
    expect(toSignInResult(withPasskeys).factors).toEqual([
      { id: 'wanA', type: 'webauthn' },
      { id: 'smsB', type: 'sms', phoneNumber: '+44 XXXX XXX123' },
    ]);
  });

  it('maps MFA_CHALLENGE to the spec MFA verify result, with landlineIsAMobile for calls to a mobile', () => {
    const challenge = (f: ReturnType<typeof factor>): AuthnTransaction => ({
      status: 'MFA_CHALLENGE',
      stateToken: '00state',
      expiresAt: '2026-11-21T10:10:00.000Z',
      factorResult: 'CHALLENGE',
      _embedded: { user, factor: f },
      _links: {
        next: link('https://id.example.org/n', 'verify'),
        prev: link('https://id.example.org/p'),
        cancel: link('https://id.example.org/c'),
        resend: [link('https://id.example.org/r', f.factorType)],
      },
    });
    const mobileCall = toMfaVerifyResult(challenge(factor('clfM', 'call', '+44 XXXX XXX123', true)))!;
    expect(mobileCall).toEqual({
      factorId: 'clfM',
      stateToken: '00state',
      status: 'MFA_CHALLENGE',
      phoneNumber: '+44 XXXX XXX123',
      factorType: 'call',
      landlineIsAMobile: true,
    });
    expect(codeLengthOf(mobileCall)).toBe(6);
    const landline = toMfaVerifyResult(challenge(factor('clfL', 'call', '+44 XXXX XXX456', false)))!;
    expect(codeLengthOf(landline)).toBe(5);
    const sms = toMfaVerifyResult(challenge(factor('smsS', 'sms', '+44 XXXX XXX123', false)))!;
    expect(sms.landlineIsAMobile).toBe(false);
    expect(codeLengthOf(sms)).toBe(6);
    expect(toMfaVerifyResult(mfaRequired)).toBeNull();
  });

  it('maps provider statuses to session statuses', () => {
    expect(sessionStatusOf('MFA_REQUIRED')).toBe('mfaRequired');
    expect(sessionStatusOf('MFA_CHALLENGE')).toBe('mfaChallenge');
    expect(sessionStatusOf('SUCCESS')).toBe('success');
    expect(sessionStatusOf('PASSWORD_RESET')).toBe('unknown');
  });
});

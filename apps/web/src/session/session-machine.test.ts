import { sessionStatusOf } from '@portal/contracts/identity';
import { describe, expect, it } from 'vitest';
import { parseSessionData, SessionTransitionError, transition, type SessionData } from './session-machine';

const factors = [
  { id: 'sms1', type: 'sms' as const, phoneNumber: '+44 XXXX XXX123' },
  { id: 'call1', type: 'call' as const, phoneNumber: '+44 XXXX XXX456' },
  // Calls to two lines say which is which (issue 38): kept across a reload.
  { id: 'call2', type: 'call' as const, phoneNumber: '+44 XXXX XXX456', line: 'landline' as const },
];

describe('session state machine', () => {
  it('maps provider statuses to session statuses, anything else unknown', () => {
    expect(sessionStatusOf('MFA_REQUIRED')).toBe('mfaRequired');
    expect(sessionStatusOf('MFA_CHALLENGE')).toBe('mfaChallenge');
    expect(sessionStatusOf('SUCCESS')).toBe('success');
    expect(sessionStatusOf('LOCKED_OUT')).toBe('unknown');
    expect(sessionStatusOf('PASSWORD_EXPIRED')).toBe('unknown');
    expect(sessionStatusOf('PASSWORD_RESET')).toBe('unknown');
  });

  it('walks the whole journey: mfaRequired, mfaChallenge, success, marketingPreferences, loggedIn', () => {
    let data: SessionData | null = transition(null, {
      type: 'mfaRequired',
      stateToken: 'st-1',
      factors,
      oktaUserId: '00u1',
    });
    expect(data).toEqual({ status: 'mfaRequired', stateToken: 'st-1', factors, oktaUserId: '00u1' });

    data = transition(data, {
      type: 'challengeSent',
      stateToken: 'st-1',
      factorId: 'call1',
      factorType: 'call',
      phoneNumber: '+44 XXXX XXX456',
      landlineIsAMobile: false,
    });
    expect(data).toMatchObject({
      status: 'mfaChallenge',
      factorId: 'call1',
      factorType: 'call',
      landlineIsAMobile: false,
    });

    data = transition(data, { type: 'verified' });
    // The spent state token is dropped; the factor is kept for the login audit event after the redirect.
    expect(data).toEqual({ status: 'success', verifiedWith: 'call', oktaUserId: '00u1' });

    data = transition(data, { type: 'tokensReceived', next: 'marketingPreferences' });
    expect(data?.status).toBe('marketingPreferences');

    data = transition(data, { type: 'marketingDone' });
    expect(data?.status).toBe('loggedIn');

    expect(transition(data, { type: 'reset' })).toBeNull();
  });

  it('keeps how the second step was done when it sent no code: the app, a backup code, a passkey', () => {
    const required = transition(null, { type: 'mfaRequired', stateToken: 'st-1', factors });
    for (const method of ['totp', 'backup_code', 'webauthn'] as const) {
      expect(transition(required, { type: 'verified', method })).toEqual({
        status: 'success',
        verifiedWith: method,
      });
    }
    // A passkey alone signs in from no session at all; a reload keeps the method.
    const alone = transition(null, { type: 'verified', method: 'webauthn' });
    expect(parseSessionData(JSON.stringify(alone))).toEqual({ status: 'success', verifiedWith: 'webauthn' });
    expect(parseSessionData(JSON.stringify({ status: 'success', verifiedWith: 'carrier-pigeon' }))).toEqual({
      status: 'success',
    });
  });

  it('goes straight to loggedIn when an address was waiting after sign-in', () => {
    const data = transition({ status: 'success' }, { type: 'tokensReceived', next: 'loggedIn' });
    expect(data?.status).toBe('loggedIn');
  });

  it('refuses steps out of order, so a page reached out of turn starts again', () => {
    expect(() =>
      transition(null, {
        type: 'challengeSent',
        stateToken: 's',
        factorId: 'f',
        factorType: 'sms',
        phoneNumber: 'p',
        landlineIsAMobile: false,
      }),
    ).toThrow(SessionTransitionError);
    expect(() =>
      transition({ status: 'mfaRequired', stateToken: 's' }, { type: 'tokensReceived', next: 'loggedIn' }),
    ).toThrow(SessionTransitionError);
    expect(() => transition(null, { type: 'marketingDone' })).toThrow(SessionTransitionError);
  });

  it('lets a sign-in start again from an unfinished one', () => {
    const data = transition(
      { status: 'mfaChallenge', stateToken: 'old', factorId: 'sms1', factorType: 'sms' },
      { type: 'mfaRequired', stateToken: 'new', factors },
    );
    expect(data).toEqual({ status: 'mfaRequired', stateToken: 'new', factors });
  });

  it('reads stored data defensively', () => {
    expect(parseSessionData(null)).toBeNull();
    expect(parseSessionData('not json')).toBeNull();
    expect(parseSessionData('{"status":"hacked"}')).toBeNull();
    expect(
      parseSessionData(
        JSON.stringify({
          status: 'mfaRequired',
          stateToken: 'st',
          factors: [
            ...factors,
            { id: 'x', type: 'email', phoneNumber: 'p' },
            null,
            { id: 'call3', type: 'call', phoneNumber: '+44 XXXX XXX789', line: 'office' },
          ],
          landlineIsAMobile: 'yes',
          factorType: 'fax',
        }),
      ),
    ).toEqual({
      status: 'mfaRequired',
      stateToken: 'st',
      factors: [...factors, { id: 'call3', type: 'call', phoneNumber: '+44 XXXX XXX789' }],
    });
  });
});

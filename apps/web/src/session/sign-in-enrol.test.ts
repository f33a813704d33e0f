import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerNavigator } from '../lib/app-navigation';
import { completeSignIn } from './sign-in';
import { getSessionData, setSessionData } from './session-store';

/*
 * MFA_ENROLL (a customer with no second factor to verify with; an Okta SDK sets up an app there, decision
 * 023): the SPA does not set one up at sign-in, so it shows the verify page with nothing to choose, whose
 * words tell the customer to call us, as before the identity service answered MFA_ENROLL.
 */
describe('completeSignIn with MFA_ENROLL', () => {
  afterEach(() => setSessionData(null));

  it('stores the transaction with no factors and goes to the verify page', async () => {
    const navigate = vi.fn();
    const unregister = registerNavigator({ navigate, currentPath: () => '/login' });
    const link = { href: 'https://portal.example/api/v1/authn/factors', hints: { allow: ['POST'] } };
    const outcome = await completeSignIn({
      status: 'MFA_ENROLL',
      stateToken: '00enrol',
      expiresAt: '2026-11-28T10:00:00.000Z',
      _embedded: {
        user: {
          id: '00u1',
          profile: {
            login: 'a@example.org',
            firstName: 'A',
            lastName: 'B',
            locale: 'en_GB',
            timeZone: 'Europe/London',
          },
        },
        factors: [
          {
            factorType: 'token:software:totp',
            provider: 'GOOGLE',
            vendorName: 'GOOGLE',
            status: 'NOT_SETUP',
            enrollment: 'REQUIRED',
            _links: { enroll: link },
          },
        ],
      },
      _links: { cancel: { ...link, href: 'https://portal.example/api/v1/authn/cancel' } },
    });
    unregister();
    expect(outcome).toEqual({ kind: 'mfaRequired', path: '/login/verify' });
    expect(navigate).toHaveBeenCalledWith('/login/verify', undefined);
    expect(getSessionData()).toMatchObject({ status: 'mfaRequired', stateToken: '00enrol', factors: [] });
  });
});

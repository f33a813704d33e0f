import { describe, expect, it } from 'vitest';
import { allCalls, buildPath } from './call';
import {
  combinedPreferences,
  statusTokenCall,
  updatePreferencesBody,
  updatePreferencesCall,
  userPreferences,
} from './account';

describe('account contracts', () => {
  it('accepts a partial marketing change, a correspondence change, or both', () => {
    expect(updatePreferencesBody.safeParse({ marketingPreferences: { online: true } }).success).toBe(true);
    expect(updatePreferencesBody.safeParse({ correspondencePreferences: { paperless: true } }).success).toBe(
      true,
    );
    expect(
      updatePreferencesBody.safeParse({
        marketingPreferences: { email: true, phone: false, post: true, online: false },
        correspondencePreferences: { paperless: true, addressLines: [] },
      }).success,
    ).toBe(true);
  });

  it.each([
    ['nothing to change', {}],
    ['an empty marketing change', { marketingPreferences: {} }],
    ['a string for a boolean', { marketingPreferences: { email: 'true' } }],
    ['null for a boolean', { marketingPreferences: { post: null } }],
    ['an unknown channel', { marketingPreferences: { sms: true } }],
    ['an unknown top-level field', { marketingPreferences: { email: true }, extra: 1 }],
    ['correspondence without paperless', { correspondencePreferences: { addressLines: ['1 High St'] } }],
    ['a blank address line', { correspondencePreferences: { paperless: false, addressLines: ['  '] } }],
    [
      'eight address lines',
      { correspondencePreferences: { paperless: false, addressLines: Array(8).fill('x') } },
    ],
  ])('refuses %s', (_name, body) => {
    expect(updatePreferencesBody.safeParse(body).success).toBe(false);
  });

  it('lets a response carry unset (null) channels and strips fields it does not know', () => {
    const parsed = userPreferences.parse({
      email: null,
      marketingPreferences: { email: null, phone: null, post: null, online: null },
      correspondencePreferences: { paperless: false, addressLines: ['1 High St'] },
      noticePreferences: { email: false, emailRequired: false, text: false, textTo: null },
      registrationJourney: true,
      addedLater: 'ignored',
    });
    expect(parsed).not.toHaveProperty('addedLater');
    expect(
      combinedPreferences.safeParse({
        marketingPreferences: { email: true, phone: true, post: true },
        correspondencePreferences: { paperless: true, addressLines: [] },
      }).success,
    ).toBe(false);
  });

  it('registers the calls under the account service with customer-scoped paths', () => {
    const ids = allCalls().map((c) => c.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'account.preferences.user',
        'account.preferences.marketing',
        'account.preferences.correspondence',
        'account.preferences.update',
        'account.statusToken',
      ]),
    );
    expect(buildPath(updatePreferencesCall.path, { customerId: 'C1000001' })).toBe(
      '/api/v1/Preferences/C1000001',
    );
    expect(buildPath(statusTokenCall.path, { customerId: 'C1000001' })).toBe(
      '/api/v1/customers/C1000001/status-token',
    );
    expect(statusTokenCall.auth).toBe(true);
    expect(statusTokenCall.params?.safeParse({ customerId: '../admin' }).success).toBe(false);
  });
});

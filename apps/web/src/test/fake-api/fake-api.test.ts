import { getUserPreferencesCall, type UserPreferences } from '@portal/contracts/account';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, callApi, setAccessTokenProvider } from '../../lib/api-client';
import { setPageInit } from '../../lib/page-init';
import { testAccessToken } from './identity-scenario';
import { testPageInit } from '../content-fixtures';
import { fakeApi, fakeCall } from './fake-api';

const stored: UserPreferences = {
  email: 'ann@example.co.uk',
  marketingPreferences: { email: true, phone: null, post: null, online: false },
  correspondencePreferences: { paperless: true, addressLines: [] },
  noticePreferences: { email: true, emailRequired: true, text: false, textTo: null },
  registrationJourney: false,
};

describe('the fake API', () => {
  beforeEach(() => {
    setPageInit(testPageInit);
    fakeApi.use(fakeCall(getUserPreferencesCall, () => ({ status: 200, body: stored })));
  });
  afterEach(() => setAccessTokenProvider(undefined));

  it('answers a contract call through the real API client', async () => {
    setAccessTokenProvider(() => testAccessToken({ customerId: 'C1' }));
    const result = await callApi(getUserPreferencesCall, {
      params: { customerId: 'C1' },
    });
    expect(result.email).toBe('ann@example.co.uk');
  });

  it('answers 404 for another customer and 401 without a token, as the services do', async () => {
    setAccessTokenProvider(() => testAccessToken({ customerId: 'C1' }));
    const other = callApi(getUserPreferencesCall, {
      params: { customerId: 'C2' },
    });
    await expect(other).rejects.toMatchObject({ status: 404 });
    setAccessTokenProvider(undefined);
    const anonymous = callApi(getUserPreferencesCall, {
      params: { customerId: 'C1' },
    });
    await expect(anonymous).rejects.toBeInstanceOf(ApiError);
    await expect(anonymous).rejects.toMatchObject({ status: 401 });
  });
});

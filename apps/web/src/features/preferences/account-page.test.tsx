import { pageContent, type PageOf } from '@portal/contracts/content';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { getUserPreferencesCall, updatePreferencesCall } from '@portal/contracts/account';
import { postAuditEventCall } from '@portal/contracts/eventlog';
import { completeRegistrationCall } from '@portal/contracts/registration';
import { passkeyOfferCall } from '@portal/contracts/passkey-offer';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import accountContent from '../../../../../content/pages/account.json';
import marketingContent from '../../../../../content/pages/account-marketing-preferences.json';
import { getSessionData } from '../../session/session-store';
import { renderAuthPage } from '../../session/testing/render-auth-page';
import { setPageInit } from '../../lib/page-init';
import { testPageInit } from '../../test/content-fixtures';
import { callsTo, fakeApi, fakeCall } from '../../test/fake-api/fake-api';
import { CUSTOMER_ID, preferences, preferencesScenario } from '../../test/fake-api/preferences-scenario';
import { signInAs, signOutForTests } from '../../test/signed-in';
import { rememberPendingCompletion } from '../../session/registration-journey';
import AccountPage from './account-page';
import RegistrationMarketingPreferencesPage from './registration-marketing-preferences-page';

// jsdom has no WebAuthn: whether this device could make a passkey is the test's to say.
const platformAuthenticator = vi.fn(async () => false);

const account = pageContent.parse(accountContent) as PageOf<'AccountPage'>;
const marketingStep = pageContent.parse(marketingContent) as PageOf<'RegistrationMarketingPreferences'>;

const withQueries = (ui: ReactNode) => (
  <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
    {ui}
  </QueryClientProvider>
);

let cleanupNavigator: (() => void) | undefined;
async function renderAccount(path = '/account') {
  const rendered = await renderAuthPage(withQueries(<AccountPage page={account} />), path);
  cleanupNavigator = rendered.unregister;
  return rendered;
}

beforeEach(() => setPageInit(testPageInit));

afterEach(() => {
  cleanupNavigator?.();
  signOutForTests();
  setPageInit(undefined);
});

const yes = () => screen.getByRole('radio', { name: 'Yes, show me tailored offers' });
const no = () => screen.getByRole('radio', { name: 'No, thank you' });
const save = () => screen.getByRole('button', { name: 'Save and continue' });

describe('AccountPage: the first-sign-in marketing step', () => {
  it('goes straight on to the dashboard, signed in, when the online choice was made before', async () => {
    await signInAs(CUSTOMER_ID);
    preferencesScenario(preferences({ online: false, email: true }));
    const { location } = await renderAccount();
    await waitFor(() => expect(location().pathname).toBe('/account/dashboard'));
    expect(getSessionData()?.status).toBe('loggedIn');
    expect(callsTo(getUserPreferencesCall)[0]!.headers.get('Authorization')).toMatch(/^Bearer /);
    expect(callsTo(updatePreferencesCall)).toHaveLength(0);
  });

  it('goes on to the policy page kept from before sign-in instead of the dashboard', async () => {
    await signInAs(CUSTOMER_ID);
    sessionStorage.setItem('redirectAfterLogin', '/account/policies?id=204X7654321');
    preferencesScenario(preferences({ online: true }));
    const { location } = await renderAccount();
    await waitFor(() => expect(location().pathname).toBe('/account/policies'));
    expect(location().search).toBe('?id=204X7654321');
    expect(sessionStorage.getItem('redirectAfterLogin')).toBeNull();
  });

  it('offers a passkey first where this device can make one and the offer is due, else goes on', async () => {
    await signInAs(CUSTOMER_ID);
    preferencesScenario(preferences({ online: true }));
    let due = true;
    fakeApi.use(fakeCall(passkeyOfferCall, () => ({ status: 200, body: { due } })));
    platformAuthenticator.mockResolvedValue(true);
    vi.stubGlobal('PublicKeyCredential', {
      isUserVerifyingPlatformAuthenticatorAvailable: platformAuthenticator,
    });
    try {
      const first = await renderAccount();
      await waitFor(() => expect(first.location().pathname).toBe('/account/passkey'));
      expect(getSessionData()?.status).toBe('loggedIn');
      cleanupNavigator?.();

      due = false;
      const second = await renderAccount();
      await waitFor(() => expect(second.location().pathname).toBe('/account/dashboard'));
      expect(callsTo(passkeyOfferCall)).toHaveLength(2);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('keeps Save unavailable until yes or no is chosen, and says why', async () => {
    await signInAs(CUSTOMER_ID);
    preferencesScenario();
    const user = userEvent.setup();
    await renderAccount();
    expect(await screen.findByRole('radio', { name: 'Yes, show me tailored offers' })).toHaveAttribute(
      'id',
      '7654987',
    );
    expect(no()).toHaveAttribute('id', '7654988');
    expect(screen.getByRole('checkbox', { name: 'Email' })).toHaveAttribute('id', '111');
    expect(screen.getByRole('checkbox', { name: 'Phone' })).toHaveAttribute('id', '222');
    expect(screen.getByRole('checkbox', { name: 'Post' })).toHaveAttribute('id', '333');
    expect(save()).toHaveAttribute('aria-disabled', 'true');
    await user.click(save());
    const summary = await screen.findByRole('alert');
    expect(summary).toHaveFocus();
    expect(summary).toHaveTextContent('Choose yes or no to tailored offers to continue');
    expect(
      screen.getByRole('link', { name: 'Choose yes or no to tailored offers to continue' }),
    ).toHaveAttribute('href', '#7654987');
    expect(callsTo(updatePreferencesCall)).toHaveLength(0);
    await user.click(no());
    expect(save()).not.toHaveAttribute('aria-disabled');
  });

  it('saves with paperless on and the address lines cleared, audited as the on-registration variant', async () => {
    await signInAs(CUSTOMER_ID);
    localStorage.setItem('registrationJourney', '1');
    preferencesScenario();
    const user = userEvent.setup();
    const { location } = await renderAccount();
    await user.click(await screen.findByRole('checkbox', { name: 'Email' }));
    await user.click(screen.getByRole('checkbox', { name: 'Post' }));
    await user.click(yes());
    await user.click(save());
    await waitFor(() => expect(location().pathname).toBe('/account/dashboard'));
    expect(callsTo(updatePreferencesCall)[0]!.body).toEqual({
      marketingPreferences: { online: true, email: true, phone: false, post: true },
      correspondencePreferences: { paperless: true, addressLines: [] },
    });
    expect(getSessionData()?.status).toBe('loggedIn');
    expect(localStorage.getItem('registrationJourney')).toBeNull();
    await waitFor(() =>
      expect(callsTo(postAuditEventCall).map((c) => c.body)).toContainEqual(
        expect.objectContaining({
          eventId: 'MarketingPreferencesUpdateOnRegistration',
          isSuccess: true,
          customerId: CUSTOMER_ID,
          marketingChannels: 'email,online,post',
          marketingConsent: true,
          correspondencePreference: 'paperless',
          authenticationStatus: 'Authenticated',
        }),
      ),
    );
  });

  it('offers the channels only when none is set, and audits the ordinary variant outside registration', async () => {
    await signInAs(CUSTOMER_ID);
    preferencesScenario(preferences({ email: false }));
    const user = userEvent.setup();
    await renderAccount();
    await user.click(await screen.findByRole('radio', { name: 'No, thank you' }));
    expect(screen.queryByRole('checkbox', { name: 'Email' })).not.toBeInTheDocument();
    await user.click(save());
    await waitFor(() => expect(callsTo(updatePreferencesCall)).toHaveLength(1));
    expect(callsTo(updatePreferencesCall)[0]!.body).toEqual({
      marketingPreferences: { online: false },
      correspondencePreferences: { paperless: true, addressLines: [] },
    });
    await waitFor(() =>
      expect(callsTo(postAuditEventCall).map((c) => c.body)).toContainEqual(
        expect.objectContaining({ eventId: 'MarketingPreferencesUpdate' }),
      ),
    );
  });

  it('shows the save error and keeps the choice when saving fails', async () => {
    await signInAs(CUSTOMER_ID);
    preferencesScenario();
    fakeApi.use(fakeCall(updatePreferencesCall, () => ({ status: 500 })));
    const user = userEvent.setup();
    const { location } = await renderAccount();
    await user.click(await screen.findByRole('radio', { name: 'Yes, show me tailored offers' }));
    await user.click(save());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Sorry, we could not save your preferences');
    expect(yes()).toBeChecked();
    expect(location().pathname).toBe('/account');
    expect(getSessionData()?.status).toBe('marketingPreferences');
  });

  it('proceeds as submitted when the preferences cannot be loaded during registration', async () => {
    await signInAs(CUSTOMER_ID);
    localStorage.setItem('registrationJourney', '1');
    preferencesScenario();
    fakeApi.use(fakeCall(getUserPreferencesCall, () => ({ status: 500 })));
    const { location } = await renderAccount();
    await waitFor(() => expect(location().pathname).toBe('/account/dashboard'));
    expect(getSessionData()?.status).toBe('loggedIn');
  });

  it('says the preferences cannot be shown outside registration, with a way on', async () => {
    await signInAs(CUSTOMER_ID);
    preferencesScenario();
    fakeApi.use(fakeCall(getUserPreferencesCall, () => ({ status: 500 })));
    const user = userEvent.setup();
    const { location } = await renderAccount();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'we cannot show your preferences at the moment',
    );
    await user.click(screen.getByRole('button', { name: 'Continue to your account' }));
    await waitFor(() => expect(location().pathname).toBe('/account/dashboard'));
  });

  it('completes a new registration left by the password page', async () => {
    await signInAs(CUSTOMER_ID);
    rememberPendingCompletion({
      oktaUserId: '00u-eleanor',
      stateToken: 'state-activation',
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    preferencesScenario();
    await renderAccount();
    await waitFor(() => expect(callsTo(completeRegistrationCall)).toHaveLength(1));
    expect(callsTo(completeRegistrationCall)[0]!.body).toEqual({
      oktaUserId: '00u-eleanor',
      stateToken: 'state-activation',
    });
    expect(sessionStorage.getItem('registrationCompletion')).toBeNull();
  });
});

describe('RegistrationMarketingPreferences', () => {
  it('asks the same question at its own address', async () => {
    await signInAs(CUSTOMER_ID);
    preferencesScenario();
    const rendered = await renderAuthPage(
      withQueries(<RegistrationMarketingPreferencesPage page={marketingStep} />),
      '/account/marketing-preferences',
    );
    cleanupNavigator = rendered.unregister;
    expect(await screen.findByRole('button', { name: 'Save and go to my account' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Your marketing preferences' })).toBeInTheDocument();
  });
});

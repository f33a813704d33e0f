import type { BlockOf } from '@portal/contracts/content';
import { declinePasskeyOfferCall } from '@portal/contracts/passkey-offer';
import { passkeyOptionsCall, registerPasskeyCall } from '@portal/contracts/passkeys';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import content from '../../../../../../content/pages/account-passkey.json';
import { createQueryClient } from '../../../session/query-client';
import { callsTo, fakeApi, fakeCall } from '../../../test/fake-api/fake-api';
import { renderWithRoot } from '../../../test/render-with-root';
import { signedInAs } from '../../../test/signed-in';
import PasskeyOfferBlock from './passkey-offer';

/*
 * The offer after registration (issue 25 point 5). jsdom has no authenticator: the library that drives
 * navigator.credentials is replaced, as in passkey-step.test.ts.
 */
const browser = vi.hoisted(() => ({
  browserSupportsWebAuthn: vi.fn(() => true),
  startRegistration: vi.fn(),
}));
vi.mock('@simplewebauthn/browser', () => browser);

const block = content.blocks[0] as unknown as BlockOf<'passkeyOffer'>;
const options = {
  challenge: 'Y2hhbGxlbmdl',
  rp: { id: 'localhost', name: 'Meridian Mutual' },
  user: { id: 'dXNlcg', name: 'new@example.org', displayName: 'New Customer' },
  pubKeyCredParams: [{ type: 'public-key' as const, alg: -7 }],
  timeout: 300_000,
  attestation: 'none' as const,
  authenticatorSelection: { residentKey: 'preferred' as const, userVerification: 'required' as const },
  excludeCredentials: [],
};
const credential = {
  id: 'Y3JlZA',
  rawId: 'Y3JlZA',
  type: 'public-key' as const,
  response: { clientDataJSON: 'e30', attestationObject: 'o2Nm', transports: ['internal'] },
  clientExtensionResults: {},
};

function fakePortal() {
  fakeApi.use(
    fakeCall(passkeyOptionsCall, () => ({ status: 200, body: options })),
    fakeCall(registerPasskeyCall, () => ({
      status: 200,
      body: { id: 'wan1', type: 'passkey', status: 'ACTIVE', label: block.defaultName },
    })),
    fakeCall(declinePasskeyOfferCall, () => ({
      status: 200,
      body: { due: false, notBefore: '2027-01-01T00:00:00.000Z' },
    })),
  );
}

const render = () =>
  renderWithRoot(
    <QueryClientProvider client={createQueryClient()}>
      <PasskeyOfferBlock block={block} />
    </QueryClientProvider>,
    { path: '/account/passkey' },
  );

describe('passkey offer block', () => {
  let signOut: () => void;
  beforeEach(() => {
    signOut = signedInAs('C1000099');
    browser.browserSupportsWebAuthn.mockReturnValue(true);
    browser.startRegistration.mockReset();
  });
  afterEach(() => signOut());

  it('"Not now" records the answer and goes on to the dashboard', async () => {
    const user = userEvent.setup();
    fakePortal();
    const { router } = render();
    expect(await screen.findByRole('heading', { name: 'Set up a passkey' })).toBeInTheDocument();
    expect(screen.getByText(/we will not ask again for 30 days/)).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Not now' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/dashboard'));
    expect(callsTo(declinePasskeyOfferCall)).toHaveLength(1);
    expect(callsTo(registerPasskeyCall)).toHaveLength(0);
  });

  it("sets up a passkey under the content's name, says so, then continues", async () => {
    const user = userEvent.setup();
    fakePortal();
    browser.startRegistration.mockResolvedValue(credential);
    const { router } = render();
    await user.click(await screen.findByRole('button', { name: 'Set up a passkey' }));
    expect(await screen.findByText(/Your passkey is set up/)).toBeInTheDocument();
    const [registered] = callsTo(registerPasskeyCall);
    expect(registered?.body).toMatchObject({ name: 'My first passkey', credential: { id: 'Y3JlZA' } });
    expect(callsTo(declinePasskeyOfferCall)).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Continue to your account' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/dashboard'));
  });

  it('a closed prompt says so and leaves both choices open', async () => {
    const user = userEvent.setup();
    fakePortal();
    browser.startRegistration.mockRejectedValue(new DOMException('closed', 'NotAllowedError'));
    render();
    await user.click(await screen.findByRole('button', { name: 'Set up a passkey' }));
    expect(await screen.findByText(/Your passkey was not set up/)).toBeInTheDocument();
    expect(callsTo(registerPasskeyCall)).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Set up a passkey' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Not now' })).toBeInTheDocument();
  });

  it('where the browser cannot make passkeys, only offers to carry on', async () => {
    const user = userEvent.setup();
    fakePortal();
    browser.browserSupportsWebAuthn.mockReturnValue(false);
    const { router } = render();
    expect(await screen.findByText(/This browser cannot set up passkeys/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Set up a passkey' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue to your account' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/dashboard'));
  });
});

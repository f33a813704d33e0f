import type { BlockOf } from '@portal/contracts/content';
import {
  endOtherSignInSessionsCall,
  endSignInSessionCall,
  listSignInSessionsCall,
  type SignInSession,
} from '@portal/contracts/sign-in-sessions';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import content from '../../../../../../content/pages/profile-login-security.json';
import { createQueryClient } from '../../../session/query-client';
import { callsTo, fakeApi, fakeCall } from '../../../test/fake-api/fake-api';
import { renderWithRoot } from '../../../test/render-with-root';
import { signedInAs } from '../../../test/signed-in';
import SignInSessionsBlock from './sign-in-sessions';

const block = content.blocks.find((b) => b.type === 'signInSessions') as unknown as BlockOf<'signInSessions'>;

const here: SignInSession = {
  id: '11111111-1111-4111-8111-111111111111',
  browser: 'Chrome',
  os: 'Windows',
  network: '81.2.69.xxx',
  signedInAt: '2026-03-03T10:00:00Z',
  lastUsedAt: '2026-03-03T10:05:00Z',
  thisDevice: false,
};
const phone: SignInSession = {
  id: '22222222-2222-4222-8222-222222222222',
  browser: 'Safari',
  os: 'iOS',
  network: null,
  signedInAt: '2026-03-01T08:30:00Z',
  lastUsedAt: '2026-03-02T19:15:00Z',
  thisDevice: false,
};
const tablet: SignInSession = { ...phone, id: '33333333-3333-4333-8333-333333333333', browser: null };

function fakePortal(failEnd = false) {
  let sessions = [phone, { ...here, thisDevice: true }, tablet];
  fakeApi.use(
    fakeCall(listSignInSessionsCall, () => ({ status: 200, body: { sessions } })),
    fakeCall(endSignInSessionCall, ({ params }) => {
      if (failEnd) return { status: 404 };
      sessions = sessions.filter((s) => s.id !== params.sessionId);
      return { status: 200, body: { ended: 1 } };
    }),
    fakeCall(endOtherSignInSessionsCall, () => {
      const ended = sessions.filter((s) => !s.thisDevice).length;
      sessions = sessions.filter((s) => s.thisDevice);
      return { status: 200, body: { ended } };
    }),
  );
}

const render = () =>
  renderWithRoot(
    <QueryClientProvider client={createQueryClient()}>
      <SignInSessionsBlock block={block} />
    </QueryClientProvider>,
  );

describe("where you're signed in block", () => {
  let signOut: () => void;
  beforeEach(() => {
    signOut = signedInAs('C1000012');
  });
  afterEach(() => signOut());

  it('lists this device first and marked, with UK times and the network, and no sign-out for it', async () => {
    fakePortal();
    render();
    const region = await screen.findByRole('region', { name: "Where you're signed in" });
    const items = await within(region).findAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(within(items[0]!).getByRole('heading', { name: 'Chrome on Windows This device' })).toBeVisible();
    expect(within(items[0]!).queryByRole('button')).toBeNull();
    expect(within(items[0]!).getByText('3rd March 2026 10:00am')).toBeVisible();
    expect(within(items[0]!).getByText('81.2.69.xxx')).toBeVisible();
    expect(within(items[1]!).getByRole('heading', { name: 'Safari on iOS' })).toBeVisible();
    expect(within(items[1]!).getByText('2nd March 2026 7:15pm')).toBeVisible();
    expect(within(items[1]!).getByText('Not known')).toBeVisible();
    expect(within(items[2]!).getByRole('heading', { name: 'A web browser on iOS' })).toBeVisible();
    expect(
      within(items[1]!).getByRole('button', {
        name: 'Sign out Safari on iOS, signed in 1st March 2026 8:30am',
      }),
    ).toBeVisible();
  });

  it('signs one session out, announces it where the focus goes, then every other device', async () => {
    const user = userEvent.setup();
    fakePortal();
    render();
    const region = await screen.findByRole('region', { name: "Where you're signed in" });
    await user.click(await within(region).findByRole('button', { name: /^Sign out Safari on iOS/ }));
    const status = await within(region).findByText('Safari on iOS has been signed out.');
    await waitFor(() => expect(status.closest('[aria-live="polite"]')).toHaveFocus());
    await waitFor(() => expect(within(region).getAllByRole('listitem')).toHaveLength(2));
    expect(callsTo(endSignInSessionCall)).toHaveLength(1);

    await user.click(within(region).getByRole('button', { name: 'Sign out of every other device' }));
    expect(await within(region).findByText('You have been signed out of every other device.')).toBeVisible();
    await waitFor(() => expect(within(region).getAllByRole('listitem')).toHaveLength(1));
    expect(within(region).getByText('You are not signed in anywhere else.')).toBeVisible();
  });

  it('shows the contact centre viewing the account by name, and stops it', async () => {
    const user = userEvent.setup();
    const viewing: SignInSession = {
      ...phone,
      id: '44444444-4444-4444-8444-444444444444',
      browser: 'Chrome',
      os: 'Windows',
      viewer: 'Alex Morgan',
    };
    let sessions = [{ ...here, thisDevice: true }, viewing];
    fakeApi.use(
      fakeCall(listSignInSessionsCall, () => ({ status: 200, body: { sessions } })),
      fakeCall(endSignInSessionCall, ({ params }) => {
        sessions = sessions.filter((s) => s.id !== params.sessionId);
        return { status: 200, body: { ended: 1 } };
      }),
    );
    render();
    const region = await screen.findByRole('region', { name: "Where you're signed in" });
    const item = (await within(region).findAllByRole('listitem'))[1]!;
    expect(
      within(item).getByRole('heading', { name: 'Our contact centre: Alex Morgan, viewing your account' }),
    ).toBeVisible();
    expect(within(item).getByText(/cannot change anything/)).toBeVisible();
    await user.click(
      within(item).getByRole('button', {
        name: 'Stop them viewing: Our contact centre: Alex Morgan, viewing your account',
      }),
    );
    await waitFor(() => expect(within(region).getAllByRole('listitem')).toHaveLength(1));
    expect(callsTo(endSignInSessionCall)).toHaveLength(1);
  });

  it('says so when a sign-out fails, and keeps the list', async () => {
    const user = userEvent.setup();
    fakePortal(true);
    render();
    const region = await screen.findByRole('region', { name: "Where you're signed in" });
    await user.click(await within(region).findByRole('button', { name: /^Sign out Safari on iOS/ }));
    expect(
      await within(region).findByText('Sorry, we could not sign out. Please try again later.'),
    ).toBeVisible();
    expect(within(region).getAllByRole('listitem')).toHaveLength(3);
  });
});

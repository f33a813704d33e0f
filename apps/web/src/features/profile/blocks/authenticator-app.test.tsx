import type { BlockOf } from '@portal/contracts/content';
import {
  activateTotpCall,
  confirmPasswordCall,
  enrolTotpCall,
  listSignInMethodsCall,
  removeSignInMethodCall,
  type SignInMethod,
} from '@portal/contracts/sign-in-methods';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import content from '../../../../../../content/pages/profile-login-security.json';
import { createQueryClient } from '../../../session/query-client';
import { callsTo, fakeApi, fakeCall } from '../../../test/fake-api/fake-api';
import { renderWithRoot } from '../../../test/render-with-root';
import { signedInAs } from '../../../test/signed-in';
import AuthenticatorAppBlock, { groupedKey } from './authenticator-app';

// Counts the QR code library's loads: the page must not fetch it until a set-up starts.
const qrCode = vi.hoisted(() => ({ loads: 0 }));
vi.mock('qrcode', async (importOriginal) => {
  qrCode.loads += 1;
  return importOriginal();
});

const block = content.blocks.find(
  (b) => b.type === 'authenticatorApp',
) as unknown as BlockOf<'authenticatorApp'>;
const KEY = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const reauthRequired = {
  status: 403 as const,
  body: { code: 'REAUTHENTICATION_REQUIRED', message: 'Confirm your password', correlationId: 'c' },
};

/**
 * The portal's sign-in method calls for one customer: the list (an app once activated), set up, confirm
 * (right code 123456), remove; `stepUp` makes the guarded calls ask for the password until it is confirmed
 * (password "right").
 */
function fakePortal({ stepUp = false, active = false } = {}) {
  let confirmed = !stepUp;
  let app: SignInMethod | null = active
    ? {
        id: 'app1',
        type: 'totp',
        status: 'ACTIVE',
        label: 'Authenticator app',
        addedAt: '2026-03-03T10:00:00Z',
        lastUsedAt: null,
      }
    : null;
  fakeApi.use(
    fakeCall(listSignInMethodsCall, () => ({
      status: 200,
      body: {
        methods: [
          { id: 'sms1', type: 'sms', status: 'ACTIVE', label: '+44 XXXX XXX123' },
          ...(app ? [app] : []),
        ],
      },
    })),
    fakeCall(confirmPasswordCall, ({ body }) => {
      if (body.password !== 'right')
        return { status: 400, body: { code: 'PASSWORD_INVALID', message: 'Wrong', correlationId: 'c' } };
      confirmed = true;
      return { status: 200, body: { confirmedUntil: '2026-03-03T10:10:00Z' } };
    }),
    fakeCall(enrolTotpCall, () =>
      confirmed
        ? {
            status: 200,
            body: {
              id: 'app1',
              status: 'PENDING_ACTIVATION' as const,
              key: KEY,
              otpauthUri: `otpauth://totp/Portal:rose?secret=${KEY}&algorithm=SHA1&digits=6&period=30`,
            },
          }
        : reauthRequired,
    ),
    fakeCall(activateTotpCall, ({ body }) => {
      if (body.passCode !== '123456')
        return { status: 400, body: { code: 'MFA_CODE_INVALID', message: 'Wrong code', correlationId: 'c' } };
      app = {
        id: 'app1',
        type: 'totp',
        status: 'ACTIVE',
        label: 'Authenticator app',
        addedAt: '2026-03-03T10:00:00Z',
        lastUsedAt: '2026-03-03T10:00:00Z',
      };
      return { status: 200, body: app };
    }),
    fakeCall(removeSignInMethodCall, () => {
      if (!confirmed) return reauthRequired;
      app = null;
      return { status: 200, body: { removed: true as const } };
    }),
  );
}

const render = () =>
  renderWithRoot(
    <QueryClientProvider client={createQueryClient()}>
      <AuthenticatorAppBlock block={block} />
    </QueryClientProvider>,
  );

describe('authenticator app block', () => {
  let signOut: () => void;
  beforeEach(() => {
    signOut = signedInAs('C1000010');
  });
  afterEach(() => signOut());

  it('groups the key in fours for typing', () => {
    expect(groupedKey('JBSWY3DPEHPK3PXPJB')).toBe('JBSW Y3DP EHPK 3PXP JB');
  });

  it('sets up the app: QR code with a text alternative, the key, a wrong code kept with its error, then success', async () => {
    const user = userEvent.setup();
    fakePortal();
    render();
    expect(await screen.findByText('Not set up')).toBeInTheDocument();
    expect(qrCode.loads, 'the QR code library is not loaded with the page').toBe(0);
    await user.click(screen.getByRole('button', { name: 'Set up an authenticator app' }));

    const heading = await screen.findByRole('heading', { name: 'Set up your authenticator app' });
    await waitFor(() => expect(heading).toHaveFocus());
    const qr = await screen.findByRole('img', { name: /^QR code for your authenticator app/ });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    expect(qrCode.loads, 'loaded once the set-up started').toBe(1);
    expect(screen.getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeInTheDocument();

    const code = screen.getByRole('textbox', { name: 'Code from your app' });
    await user.click(screen.getByRole('button', { name: 'Confirm and finish' }));
    expect(screen.getByText('Enter the 6-digit code, using numbers only')).toBeInTheDocument();
    await user.type(code, '111111');
    await user.click(screen.getByRole('button', { name: 'Confirm and finish' }));
    expect(await screen.findByText(/That code is not right/)).toBeInTheDocument();
    expect(code).toHaveValue('111111');
    expect(code).toHaveAttribute('aria-invalid', 'true');

    await user.clear(code);
    await user.type(code, '123 456');
    await user.click(screen.getByRole('button', { name: 'Confirm and finish' }));
    expect(await screen.findByText(/Your authenticator app is set up/)).toBeInTheDocument();
    expect(callsTo(activateTotpCall).at(-1)?.body).toEqual({ passCode: '123456' });
    expect(await screen.findByText('Set up on 3 March 2026')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Set up again on a new phone' })).toBeInTheDocument();
  });

  it('asks for the password when the server wants it, says when it is wrong, then carries on', async () => {
    const user = userEvent.setup();
    fakePortal({ stepUp: true });
    render();
    await user.click(await screen.findByRole('button', { name: 'Set up an authenticator app' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your password' });
    const password = within(dialog).getByLabelText('Password', { exact: true });
    await waitFor(() => expect(password).toHaveFocus());

    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(within(dialog).getByText('Enter your password')).toBeInTheDocument();
    await user.type(password, 'wrong');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText(/Your password is not right/)).toBeInTheDocument();
    expect(password).toHaveValue('wrong');

    await user.clear(password);
    await user.type(password, 'right');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('heading', { name: 'Set up your authenticator app' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(callsTo(enrolTotpCall)).toHaveLength(2);
  });

  it('changes nothing when the password dialog is closed', async () => {
    const user = userEvent.setup();
    fakePortal({ stepUp: true });
    render();
    await user.click(await screen.findByRole('button', { name: 'Set up an authenticator app' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your password' });
    await user.click(within(dialog).getAllByRole('button', { name: 'Cancel' }).at(-1)!);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByRole('heading', { name: 'Set up your authenticator app' })).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('removes the app after asking first', async () => {
    const user = userEvent.setup();
    fakePortal({ active: true });
    render();
    await user.click(await screen.findByRole('button', { name: 'Remove the app' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove the authenticator app?' });
    await user.click(within(confirm).getByRole('button', { name: 'Remove the app' }));
    expect(await screen.findByText('Your authenticator app has been removed.')).toBeInTheDocument();
    expect(await screen.findByText('Not set up')).toBeInTheDocument();
    expect(callsTo(removeSignInMethodCall).at(-1)?.params).toMatchObject({ factorId: 'app1' });
  });
});

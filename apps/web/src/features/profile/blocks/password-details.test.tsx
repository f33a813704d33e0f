import type { BlockOf } from '@portal/contracts/content';
import {
  changePasswordCall,
  requestProfileCodeCall,
  type ChangePasswordBody,
} from '@portal/contracts/portal';
import { getMfaDisplayNameCall, getProfileCall, type MfaMethod } from '@portal/contracts/profile';
import { listSignInMethodsCall, type SignInMethod } from '@portal/contracts/sign-in-methods';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../session/query-client';
import { baseUrlFor } from '../../../lib/page-init';
import { testPageInit } from '../../../test/content-fixtures';
import { fakeApi, fakeCall } from '../../../test/fake-api/fake-api';
import { renderWithRoot } from '../../../test/render-with-root';
import { signedInAs } from '../../../test/signed-in';
import PasswordDetailsBlock from './password-details';

// The block as content has it (content/pages/profile-login-security.json).
const block = {
  id: 'password-details',
  type: 'passwordDetails',
  heading: 'Password',
  lastUpdatedLabel: 'Last updated',
  changeButtonText: 'Change password',
  unableToRetrieveText: 'Unable to retrieve your last password update',
  invalidDateText: 'Unable to retrieve last password update',
  modal: {
    stepOneHeading: 'Change your password',
    stepOneBody: '<p>First, we need to check it is you. Choose how to get a security code.</p>',
    smsOptionLabel: 'Text message to {number}',
    callOptionLabel: 'Phone call to {number}',
    appOptionLabel: 'Use your authenticator app',
    sendCodeText: 'Send code',
    continueText: 'Continue',
    loadingText: 'Loading…',
    methodRequiredMessage: 'Choose how to get your code',
    stepTwoHeading: 'Enter your code and new password',
    stepTwoBody: '<p>We have sent you a security code. It lasts for 5 minutes.</p>',
    appStepTwoBody:
      '<p>Open your authenticator app and enter the 6-digit code it shows for Customer portal. The code changes every 30 seconds. We have not sent you anything.</p>',
    resendText: 'Send a new code',
    resendWaitText: 'You can ask for a new code in {seconds} seconds',
    resendAvailableText: 'You can now ask for a new code',
    resendSuccessMessage: '<p>We have sent you a new code.</p>',
    fields: [
      {
        id: 'change-password-code',
        name: 'mfaPassCode',
        type: 'mobileCode',
        label: 'Security code',
        subLabel: 'Enter the 6-digit code, one number in each box',
        errorMessage: 'Enter the 6-digit code, using numbers only',
        required: true,
        minLength: 6,
        maxLength: 6,
        pattern: '^\\d{6}$',
        autocomplete: 'one-time-code',
        showWhen: 'mobile',
      },
      {
        id: 'change-password-landline-code',
        name: 'mfaPassCode',
        type: 'landlineCode',
        label: 'Security code',
        subLabel: 'Enter the 5-digit code, one number in each box',
        errorMessage: 'Enter the 5-digit code, using numbers only',
        required: true,
        minLength: 5,
        maxLength: 5,
        pattern: '^\\d{5}$',
        autocomplete: 'one-time-code',
        showWhen: 'landline',
      },
      {
        id: 'change-password-current',
        name: 'currentPassword',
        type: 'password',
        label: 'Current password',
        errorMessage: 'Enter your current password',
        required: true,
        maxLength: 256,
        autocomplete: 'current-password',
      },
      {
        id: 'change-password-new',
        name: 'newPassword',
        type: 'newPassword',
        label: 'New password',
        errorMessage: 'Enter a password that meets all the requirements',
        required: true,
        maxLength: 256,
        pattern: '^\\S+$',
        autocomplete: 'new-password',
      },
    ],
    submitText: 'Save new password',
    cancelText: 'Cancel',
    backText: 'Back',
    successMessage: '<p>Your password has been changed. Use your new password next time you sign in.</p>',
    updateErrorMessage: '<p>Sorry, we could not change your password. Please try again later.</p>',
    codeErrorMessage:
      '<p>That security code is not right or has expired. Check it, or go back and ask for a new code.</p>',
    appCodeErrorMessage:
      '<p>That code is not right, or it has already been used. Wait for your app to show a new code, then enter that one.</p>',
    currentPasswordErrorMessage: '<p>Your current password is not right. Check it and try again.</p>',
    passwordErrorMessage:
      '<p>Choose a different new password. It must meet all the requirements and must not be one you have used before.</p>',
  },
} as unknown as BlockOf<'passwordDetails'>;

const profile = (passwordLastUpdated: string | null) => ({
  firstName: 'Helen',
  lastName: 'Dawson',
  dateOfBirthFormatted: '22/08/1968',
  addressLineOne: '1 Hill Road',
  addressLineTwo: '',
  addressLineThree: '',
  town: 'Shrewsbury',
  county: 'Shropshire',
  postCode: 'SY5 8AB',
  emailAddress: 'helen.dawson@example.co.uk',
  mobileNumber: '07700900333',
  landlineNumber: '01743 555019',
  passwordLastUpdated,
});

const refused = (errorCode: 1 | 2 | 3 | 4) => ({
  status: 400 as const,
  body: { code: 'REFUSED', message: 'Refused', errorCode, correlationId: 'c' },
});
type ChangeAnswer = ReturnType<typeof refused> | { status: 200; body: { passwordLastUpdated: string } };
const changed = (passwordLastUpdated = '2026-11-24T15:30:00Z'): ChangeAnswer => ({
  status: 200,
  body: { passwordLastUpdated },
});

/**
 * The profile, both masked factors, the send-code call (by text 6 digits; a call goes to the landline, 5)
 * and the change, answered in turn from `answers`. Returns what the screen sent.
 */
function fakePortal({
  answers = [],
  sendFails = () => false,
  app = false,
}: { answers?: ChangeAnswer[]; sendFails?: (sendNumber: number) => boolean; app?: boolean } = {}) {
  const sent: MfaMethod[] = [];
  const changes: ChangePasswordBody[] = [];
  fakeApi.use(
    fakeCall(getProfileCall, () => ({ status: 200, body: profile('2024-03-03T14:05:00Z') })),
    fakeCall(getMfaDisplayNameCall, ({ params }) => ({
      status: 200,
      body: {
        displayName:
          params.method === 'sms' ? 'Text message to +44 XXXX XXX333' : 'Phone call to +44 XXXX XXX019',
      },
    })),
    fakeCall(requestProfileCodeCall, ({ params }) => {
      sent.push(params.method);
      if (sendFails(sent.length)) return { status: 503 };
      return {
        status: 200,
        body: {
          sent: true as const,
          expiresAt: '2026-11-24T12:05:00Z',
          codeLength: params.method === 'call' ? (5 as const) : (6 as const),
        },
      };
    }),
    fakeCall(changePasswordCall, ({ body }) => {
      changes.push(body);
      return answers.shift() ?? refused(4);
    }),
    fakeCall(listSignInMethodsCall, () => ({
      status: 200,
      body: {
        methods: [
          { id: 'sms1', type: 'sms', status: 'ACTIVE', label: '+44 XXXX XXX333' },
          ...(app
            ? [
                {
                  id: 'ost1',
                  type: 'totp',
                  status: 'ACTIVE',
                  label: 'Authenticator app',
                  addedAt: '2026-11-01T10:00:00Z',
                  lastUsedAt: null,
                } satisfies SignInMethod,
              ]
            : []),
        ],
      },
    })),
  );
  return { sent, changes };
}

const render = () =>
  renderWithRoot(
    <QueryClientProvider client={createQueryClient()}>
      <PasswordDetailsBlock block={block} />
    </QueryClientProvider>,
  );

const changeButton = () => screen.getByRole('button', { name: 'Change password' });
const dialog = (name: string) => screen.getByRole('dialog', { name });
const codeGroup = () => screen.getByRole('group', { name: 'Security code' });
const digit = (n: number, of = 6) => screen.getByRole('textbox', { name: `Digit ${n} of ${of}` });
const currentPassword = () => screen.getByLabelText('Current password', { exact: true });
const newPassword = () => screen.getByLabelText('New password', { exact: true });
const resendButton = () => screen.getByRole('button', { name: 'Send a new code' });

type User = ReturnType<typeof userEvent.setup>;

async function reachStepTwo(user: User, option: RegExp = /^Text message to/) {
  await user.click(await screen.findByRole('button', { name: 'Change password' }));
  await user.click(await screen.findByRole('radio', { name: option }));
  await user.click(screen.getByRole('button', { name: 'Send code' }));
  await screen.findByRole('dialog', { name: 'Enter your code and new password' });
}

async function typeCode(user: User, code: string, boxes = 6) {
  await user.click(digit(1, boxes));
  await user.keyboard(code);
}

describe('password details: when the password was last changed', () => {
  let signOut: () => void;
  beforeEach(() => {
    signOut = signedInAs('C1000007');
  });
  afterEach(() => signOut());

  it('shows the date like "3rd March 2024 2:05pm", in UK time', async () => {
    fakeApi.use(fakeCall(getProfileCall, () => ({ status: 200, body: profile('2024-03-03T14:05:00Z') })));
    render();
    await waitFor(() => expect(screen.getByRole('definition')).toHaveTextContent(/^3rd March 2024 2:05pm$/));
    expect(screen.getByRole('term')).toHaveTextContent('Last updated');
  });

  it.each([400, 404, 502] as const)(
    'says "Unable to retrieve your last password update" when the profile call answers %i',
    async (status) => {
      fakeApi.use(
        status === 400
          ? // fakeCall types a status the contract spreads in (customerCallErrors) as "400", so MSW answers it.
            http.get(`${baseUrlFor(getProfileCall.service, testPageInit)}${getProfileCall.path}`, () =>
              HttpResponse.json(
                { code: 'BAD_REQUEST', message: 'Bad Request', correlationId: 'c' },
                { status: 400, statusText: 'Bad Request' },
              ),
            )
          : fakeCall(getProfileCall, () => ({ status })),
      );
      window.history.replaceState(null, '', '/profile/login-security');
      render();
      expect(await screen.findByText('Unable to retrieve your last password update')).toBeInTheDocument();
      expect(screen.queryByText('Unable to retrieve last password update')).not.toBeInTheDocument();
      // Spec §8: a security details failure keeps the page for after the next sign-in.
      expect(sessionStorage.getItem('redirectAfterLogin')).toBe('/profile/login-security');
    },
  );

  it.each([
    ['no date in the profile', null],
    ['a date that is not one', '2024-13-45T99:00:00Z'],
  ])('says "Unable to retrieve last password update" for %s', async (_, date) => {
    fakeApi.use(fakeCall(getProfileCall, () => ({ status: 200, body: profile(date) })));
    render();
    expect(await screen.findByText('Unable to retrieve last password update')).toBeInTheDocument();
    expect(screen.queryByText('Unable to retrieve your last password update')).not.toBeInTheDocument();
  });
});

describe('change password modal (spec §4: closed, step one, step two, back)', () => {
  let signOut: () => void;
  beforeEach(() => {
    signOut = signedInAs('C1000007');
  });
  afterEach(() => {
    signOut();
    vi.useRealTimers();
  });

  it('opens on step one with the masked numbers, moves focus in, and gives it back to Change password on close', async () => {
    const user = userEvent.setup();
    const { sent } = fakePortal();
    render();
    await screen.findByText('3rd March 2024 2:05pm');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(changeButton());
    const stepOne = dialog('Change your password');
    await waitFor(() => expect(stepOne).toHaveFocus());
    expect(
      await within(stepOne).findByRole('radio', { name: 'Text message to +44 XXXX XXX333' }),
    ).not.toBeChecked();
    expect(within(stepOne).getByRole('radio', { name: 'Phone call to +44 XXXX XXX019' })).not.toBeChecked();
    // No authenticator app on this account: no third choice.
    expect(
      within(stepOne).queryByRole('radio', { name: 'Use your authenticator app' }),
    ).not.toBeInTheDocument();

    // As on the sign-in verify page: Send code is not available until text or call is chosen; pressed
    // anyway, the choice says what is missing, and nothing is sent.
    const send = within(stepOne).getByRole('button', { name: 'Send code' });
    expect(send).toHaveAttribute('aria-disabled', 'true');
    await user.click(send);
    expect(within(stepOne).getByRole('group', { name: 'Change your password' })).toHaveAccessibleDescription(
      /Choose how to get your code/,
    );
    expect(sent).toEqual([]);
    await user.click(within(stepOne).getByRole('radio', { name: 'Text message to +44 XXXX XXX333' }));
    expect(send).not.toHaveAttribute('aria-disabled');

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(changeButton()).toHaveFocus();

    await user.click(changeButton());
    const cancelButtons = within(dialog('Change your password')).getAllByRole('button', { name: 'Cancel' });
    await user.click(cancelButtons[cancelButtons.length - 1]!);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(changeButton()).toHaveFocus();
  });

  it('asks for 6 digits after a text, goes back to step one, and asks for 5 after a call to a landline', async () => {
    const user = userEvent.setup();
    const { sent } = fakePortal();
    render();
    await reachStepTwo(user, /^Text message to/);
    expect(within(codeGroup()).getAllByRole('textbox')).toHaveLength(6);
    expect(codeGroup()).toHaveAccessibleDescription(/Enter the 6-digit code, one number in each box/);
    expect(currentPassword()).toBeInTheDocument();
    expect(newPassword()).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(dialog('Change your password')).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Security code' })).not.toBeInTheDocument();

    await user.click(await screen.findByRole('radio', { name: 'Phone call to +44 XXXX XXX019' }));
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    await screen.findByRole('dialog', { name: 'Enter your code and new password' });
    expect(within(codeGroup()).getAllByRole('textbox')).toHaveLength(5);
    expect(codeGroup()).toHaveAccessibleDescription(/Enter the 5-digit code, one number in each box/);
    expect(sent).toEqual(['sms', 'call']);
  });

  it('says so on step one when the code cannot be sent', async () => {
    const user = userEvent.setup();
    fakePortal({ sendFails: () => true });
    render();
    await user.click(await screen.findByRole('button', { name: 'Change password' }));
    await user.click(await screen.findByRole('radio', { name: /^Text message to/ }));
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await within(dialog('Change your password')).findByRole('alert')).toHaveTextContent(
      'Sorry, we could not change your password. Please try again later.',
    );
  });

  it('shows each refusal beside its field, takes the same code again after errors 2 and 3, then succeeds', async () => {
    const user = userEvent.setup();
    const { changes } = fakePortal({
      answers: [refused(1), refused(2), refused(3), refused(4), changed()],
    });
    render();
    await reachStepTwo(user);
    const save = () => screen.getByRole('button', { name: 'Save new password' });

    // 1: the code.
    await typeCode(user, '123456');
    await user.type(currentPassword(), 'ShropshireHills1968');
    await user.type(newPassword(), 'ShrewsburyCastle2026');
    await user.click(save());
    await waitFor(() =>
      expect(codeGroup()).toHaveAccessibleDescription(/That security code is not right or has expired/),
    );
    expect(currentPassword()).not.toHaveAccessibleDescription(/not right/);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    // 2: the current password; it is cleared, the code stays.
    await typeCode(user, '654321');
    expect(codeGroup()).not.toHaveAccessibleDescription(/not right or has expired/);
    await user.click(save());
    await waitFor(() =>
      expect(currentPassword()).toHaveAccessibleDescription(
        /Your current password is not right. Check it and try again./,
      ),
    );
    expect(currentPassword()).toHaveValue('');
    expect(digit(1)).toHaveValue('6');
    expect(codeGroup()).not.toHaveAccessibleDescription(/not right or has expired/);

    // Retried with the same code: 3, the new password; it is cleared, the code stays again.
    await user.type(currentPassword(), 'ShropshireHills1968');
    await user.click(save());
    await waitFor(() => expect(newPassword()).toHaveAccessibleDescription(/Choose a different new password/));
    expect(newPassword()).toHaveValue('');
    expect(currentPassword()).not.toHaveAccessibleDescription(/not right/);

    // 4: anything else, for the whole form.
    await user.type(newPassword(), 'ShrewsburyCastle2027');
    await user.click(save());
    expect(await within(dialog('Enter your code and new password')).findByRole('alert')).toHaveTextContent(
      'Sorry, we could not change your password. Please try again later.',
    );
    expect(newPassword()).not.toHaveAccessibleDescription(/Choose a different new password/);

    await user.click(save());
    expect(await screen.findByText(/Your password has been changed/)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText('24th November 2026 3:30pm')).toBeInTheDocument();
    expect(screen.queryByText('3rd March 2024 2:05pm')).not.toBeInTheDocument();
    expect(changeButton()).toHaveFocus();

    expect(changes.map((c) => c.mfaPassCode)).toEqual(['123456', '654321', '654321', '654321', '654321']);
    expect(changes.map((c) => c.currentPassword)).toEqual(Array(5).fill('ShropshireHills1968'));
    expect(changes.map((c) => c.newPassword)).toEqual([
      'ShrewsburyCastle2026',
      'ShrewsburyCastle2026',
      'ShrewsburyCastle2026',
      'ShrewsburyCastle2027',
      'ShrewsburyCastle2027',
    ]);
  }, 30_000);

  it('offers the authenticator app to a customer who has one: nothing sent, its code with codeFrom app', async () => {
    const user = userEvent.setup();
    const { sent, changes } = fakePortal({ app: true, answers: [refused(1), changed()] });
    render();
    await user.click(await screen.findByRole('button', { name: 'Change password' }));
    const app = await screen.findByRole('radio', { name: 'Use your authenticator app' });
    await user.click(app);
    // Nothing to send: the button says Continue.
    expect(screen.queryByRole('button', { name: 'Send code' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('dialog', { name: 'Enter your code and new password' });
    expect(screen.getByText(/Open your authenticator app and enter the 6-digit code/)).toBeInTheDocument();
    expect(screen.queryByText(/We have sent you a security code/)).not.toBeInTheDocument();
    expect(within(codeGroup()).getAllByRole('textbox')).toHaveLength(6);
    // No code was sent, so there is none to send again.
    expect(screen.queryByRole('button', { name: 'Send a new code' })).not.toBeInTheDocument();

    const save = () => screen.getByRole('button', { name: 'Save new password' });
    await typeCode(user, '123456');
    await user.type(currentPassword(), 'ShropshireHills1968');
    await user.type(newPassword(), 'ShrewsburyCastle2026');
    await user.click(save());
    // A wrong or spent app code: the app's own words, and the boxes empty for the code it shows next.
    await waitFor(() =>
      expect(codeGroup()).toHaveAccessibleDescription(/That code is not right, or it has already been used/),
    );
    expect(digit(1)).toHaveValue('');
    await typeCode(user, '654321');
    await user.click(save());
    expect(await screen.findByText(/Your password has been changed/)).toBeInTheDocument();
    expect(sent).toEqual([]);
    expect(changes).toEqual([
      {
        mfaPassCode: '123456',
        currentPassword: 'ShropshireHills1968',
        newPassword: 'ShrewsburyCastle2026',
        codeFrom: 'app',
      },
      {
        mfaPassCode: '654321',
        currentPassword: 'ShropshireHills1968',
        newPassword: 'ShrewsburyCastle2026',
        codeFrom: 'app',
      },
    ]);
  }, 30_000);

  it('says what is missing on step two and sends nothing', async () => {
    const user = userEvent.setup();
    const { changes } = fakePortal();
    render();
    await reachStepTwo(user);
    await user.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(codeGroup()).toHaveAccessibleDescription(/Enter the 6-digit code, using numbers only/);
    expect(currentPassword()).toHaveAccessibleDescription(/Enter your current password/);
    expect(newPassword()).toHaveAccessibleDescription(/Enter a password that meets all the requirements/);
    expect(changes).toEqual([]);
  });

  it('offers a new code 30 seconds after step two opens and 30 seconds after each use', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { sent } = fakePortal();
    render();
    await reachStepTwo(user);
    expect(resendButton()).toHaveAttribute('aria-disabled', 'true');
    expect(resendButton()).toHaveAccessibleDescription('You can ask for a new code in 30 seconds');

    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(resendButton()).toHaveAccessibleDescription('You can ask for a new code in 20 seconds');
    await user.click(resendButton());
    expect(sent).toEqual(['sms']);

    await act(() => vi.advanceTimersByTimeAsync(20_500));
    expect(resendButton()).not.toHaveAttribute('aria-disabled');
    await typeCode(user, '12');
    await user.click(resendButton());
    expect(await screen.findByText('We have sent you a new code.')).toBeInTheDocument();
    expect(sent).toEqual(['sms', 'sms']);
    expect(digit(1)).toHaveValue('');
    expect(resendButton()).toHaveAttribute('aria-disabled', 'true');
    expect(resendButton()).toHaveAccessibleDescription('You can ask for a new code in 30 seconds');

    await act(() => vi.advanceTimersByTimeAsync(29_000));
    expect(resendButton()).toHaveAttribute('aria-disabled', 'true');
    await act(() => vi.advanceTimersByTimeAsync(1_500));
    expect(resendButton()).not.toHaveAttribute('aria-disabled');
  }, 30_000);

  it('says so in step two when a new code cannot be sent', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { sent } = fakePortal({ sendFails: (n) => n > 1 });
    render();
    await reachStepTwo(user);
    await act(() => vi.advanceTimersByTimeAsync(30_500));
    await user.click(resendButton());
    expect(await within(dialog('Enter your code and new password')).findByRole('alert')).toHaveTextContent(
      'Sorry, we could not change your password. Please try again later.',
    );
    expect(screen.queryByText('We have sent you a new code.')).not.toBeInTheDocument();
    expect(sent).toEqual(['sms', 'sms']);
  });
});

import type { BlockOf } from '@portal/contracts/content';
import { changePasswordCall, requestProfileCodeCall } from '@portal/contracts/portal';
import { getMfaDisplayNameCall, getProfileCall } from '@portal/contracts/profile';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createQueryClient } from '../../../app/query-client';
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
    smsOptionLabel: 'Text message to {phone}',
    callOptionLabel: 'Phone call to {phone}',
    sendCodeText: 'Send code',
    stepTwoHeading: 'Enter your code and new password',
    stepTwoBody: '<p>We have sent you a security code. It lasts for 5 minutes.</p>',
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
  landlineNumber: null,
  passwordLastUpdated,
});

const render = () =>
  renderWithRoot(
    <QueryClientProvider client={createQueryClient()}>
      <PasswordDetailsBlock block={block} />
    </QueryClientProvider>,
  );

describe('password details', () => {
  let signOut: () => void;
  beforeEach(() => {
    signOut = signedInAs('C1000007');
  });
  afterEach(() => signOut());

  it('shows when the password was changed, and the texts when it cannot', async () => {
    fakeApi.use(fakeCall(getProfileCall, () => ({ status: 200, body: profile('2024-03-03T14:05:00Z') })));
    const first = render();
    expect(await screen.findByText('3rd March 2024 2:05pm')).toBeInTheDocument();
    first.unmount();

    fakeApi.use(fakeCall(getProfileCall, () => ({ status: 502 })));
    const second = render();
    expect(await screen.findByText(block.unableToRetrieveText)).toBeInTheDocument();
    second.unmount();

    fakeApi.use(fakeCall(getProfileCall, () => ({ status: 200, body: profile(null) })));
    render();
    expect(await screen.findByText(block.invalidDateText)).toBeInTheDocument();
  });

  it('changes it in two steps, with the error of each field beside it', async () => {
    let answer: 'current' | 'ok' = 'current';
    fakeApi.use(
      fakeCall(getProfileCall, () => ({ status: 200, body: profile('2024-03-03T14:05:00Z') })),
      fakeCall(getMfaDisplayNameCall, ({ params }) =>
        params.method === 'sms'
          ? { status: 200, body: { displayName: 'Text message to +44 XXXX XXX333' } }
          : { status: 404 },
      ),
      fakeCall(requestProfileCodeCall, () => ({
        status: 200,
        body: { sent: true as const, expiresAt: '2026-11-24T12:05:00Z', codeLength: 6 as const },
      })),
      fakeCall(changePasswordCall, () =>
        answer === 'current'
          ? {
              status: 400 as const,
              body: {
                code: 'CURRENT_PASSWORD_INVALID',
                message: 'No',
                errorCode: 2 as const,
                correlationId: 'c',
              },
            }
          : { status: 200 as const, body: { passwordLastUpdated: '2026-11-24T15:30:00Z' } },
      ),
    );
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Change password' }));
    await userEvent.click(await screen.findByRole('radio', { name: 'Text message to +44 XXXX XXX333' }));
    expect(screen.queryByRole('radio', { name: /Phone call/ })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }));
    await userEvent.click(await screen.findByRole('textbox', { name: 'Digit 1 of 6' }));
    await userEvent.keyboard('123456');
    await userEvent.type(screen.getByLabelText('Current password', { exact: true }), 'Wrong');
    await userEvent.type(screen.getByLabelText('New password', { exact: true }), 'ShrewsburyCastle2026');
    await userEvent.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(
      await screen.findByText('Your current password is not right. Check it and try again.'),
    ).toBeInTheDocument();

    answer = 'ok';
    await userEvent.type(screen.getByLabelText('Current password', { exact: true }), 'ShropshireHills1968');
    await userEvent.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(await screen.findByText(/Your password has been changed/)).toBeInTheDocument();
    expect(screen.getByText('24th November 2026 3:30pm')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  }, 20_000);
});

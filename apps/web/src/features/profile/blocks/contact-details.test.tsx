import type { BlockOf } from '@portal/contracts/content';
import {
  confirmEmailChangeCall,
  confirmMobileChangeCall,
  startEmailChangeCall,
  startMobileChangeCall,
} from '@portal/contracts/contact-changes';
import {
  getAgencyCall,
  getAgencyWithFallbackCall,
  getMutualDirectAgencyCall,
  listPoliciesCall,
  listQuotesCall,
} from '@portal/contracts/policy';
import { getProfileCall } from '@portal/contracts/profile';
import { confirmPasswordCall } from '@portal/contracts/sign-in-methods';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import content from '../../../../../../content/pages/profile-contact-details.json';
import { createQueryClient } from '../../../session/query-client';
import { callsTo, fakeApi, fakeCall } from '../../../test/fake-api/fake-api';
import { keepOpenDrafts } from '../../../session/drafts';
import { renderWithRoot } from '../../../test/render-with-root';
import { signedInAs } from '../../../test/signed-in';
import ContactDetailsBlock from './contact-details';

// The block as content has it.
const block = content.blocks[0] as unknown as BlockOf<'contactDetails'>;
const reauthRequired = {
  status: 403 as const,
  body: { code: 'REAUTHENTICATION_REQUIRED', message: 'Confirm your password', correlationId: 'c' },
};

const profile = (mobileNumber: string | null) => ({
  firstName: 'Brenda',
  lastName: 'Ashworth',
  dateOfBirthFormatted: '21/08/1956',
  addressLineOne: '7 Quarry Row',
  addressLineTwo: '',
  addressLineThree: 'Coxwold',
  town: 'York',
  county: 'North Yorkshire',
  postCode: 'YO61 4AD',
  emailAddress: 'brenda.ashworth@example.co.uk',
  mobileNumber,
  landlineNumber: '01632960999',
  passwordLastUpdated: null,
});

/** The portal's contact change calls: right code 123456; `stepUp` asks for the password (right) first. */
function fakePortal({ mobile = '07700900999' as string | null, stepUp = false } = {}) {
  let confirmed = !stepUp;
  fakeApi.use(
    fakeCall(getProfileCall, () => ({ status: 200, body: profile(mobile) })),
    fakeCall(listPoliciesCall, () => ({ status: 502 })),
    fakeCall(listQuotesCall, () => ({ status: 502 })),
    fakeCall(getAgencyCall, () => ({ status: 502 })),
    fakeCall(getAgencyWithFallbackCall, () => ({ status: 502 })),
    fakeCall(getMutualDirectAgencyCall, () => ({ status: 502 })),
    fakeCall(confirmPasswordCall, () => {
      confirmed = true;
      return { status: 200, body: { confirmedUntil: '2026-03-03T10:10:00Z' } };
    }),
    fakeCall(startEmailChangeCall, () =>
      confirmed
        ? {
            status: 200,
            body: { sent: true as const, expiresAt: '2026-03-03T10:05:00Z', codeLength: 6 as const },
          }
        : reauthRequired,
    ),
    fakeCall(startMobileChangeCall, () => ({
      status: 200,
      body: { sent: true as const, expiresAt: '2026-03-03T10:05:00Z', codeLength: 6 as const },
    })),
    fakeCall(confirmEmailChangeCall, ({ body }) =>
      body.passCode === '123456'
        ? { status: 200, body: { emailAddress: 'brenda.new@example.co.uk' } }
        : { status: 400, body: { code: 'MFA_CODE_INVALID', message: 'Wrong code', correlationId: 'c' } },
    ),
    fakeCall(confirmMobileChangeCall, ({ body }) =>
      body.passCode === '123456'
        ? { status: 200, body: { mobileNumber: '07700900912' } }
        : { status: 400, body: { code: 'MFA_CODE_INVALID', message: 'Wrong code', correlationId: 'c' } },
    ),
  );
}

const render = () =>
  renderWithRoot(
    <QueryClientProvider client={createQueryClient()}>
      <ContactDetailsBlock block={block} />
    </QueryClientProvider>,
  );

async function typeCode(user: ReturnType<typeof userEvent.setup>, code: string) {
  await user.click(screen.getByRole('textbox', { name: /^Digit 1 of/ }));
  await user.keyboard(code);
}

describe('contact details: changing the email address and the mobile number (issue 26)', () => {
  let signOut: () => void;
  beforeEach(() => {
    signOut = signedInAs('C1000013');
  });
  afterEach(() => signOut());

  it('changes the email: errors keep what was typed, the password when asked, a wrong code, then success', async () => {
    const user = userEvent.setup();
    fakePortal({ stepUp: true });
    render();
    await user.click(await screen.findByRole('button', { name: 'Change email address' }));
    // The block has no heading of its own: the step's is the level under the page's (no level skipped).
    expect(screen.getByRole('heading', { level: 2, name: 'Change your email address' })).toHaveFocus();

    await user.type(screen.getByRole('textbox', { name: 'New email address' }), 'brenda.new@example.co.uk');
    await user.type(
      screen.getByRole('textbox', { name: 'Type the new email address again' }),
      'brenda.nwe@example.co.uk',
    );
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    const summary = screen.getByRole('alert', { name: 'There is a problem' });
    expect(summary).toHaveFocus();
    expect(within(summary).getByRole('link', { name: /do not match/ })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'New email address' })).toHaveValue(
      'brenda.new@example.co.uk',
    );
    expect(callsTo(startEmailChangeCall)).toHaveLength(0);

    const again = screen.getByRole('textbox', { name: 'Type the new email address again' });
    await user.clear(again);
    await user.type(again, 'brenda.new@example.co.uk');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    // Not a recent sign-in: the password first, then the code is sent.
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your password' });
    await user.type(within(dialog).getByLabelText('Password'), 'right');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() =>
      expect(screen.getByRole('heading', { level: 2, name: 'Enter the code we sent you' })).toHaveFocus(),
    );
    expect(
      screen.getByText(/sent a 6-digit security code to brenda\.new@example\.co\.uk/),
    ).toBeInTheDocument();

    await typeCode(user, '000000');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.getByRole('alert', { name: 'There is a problem' })).toHaveFocus());
    expect(screen.getAllByText(/That security code is not right/).length).toBeGreaterThan(0);

    for (const box of screen.getAllByRole('textbox', { name: /^Digit/ })) await user.clear(box);
    await typeCode(user, '123456');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    const success = await screen.findByText(/Your email address has been changed/);
    await waitFor(() => expect(success.closest('[role="alert"]')).toHaveFocus());
    expect(screen.getByText('brenda.new@example.co.uk')).toBeInTheDocument();
  });

  it('offers a customer without a mobile to add one, refusing what is not a UK mobile', async () => {
    const user = userEvent.setup();
    fakePortal({ mobile: null });
    render();
    await user.click(await screen.findByRole('button', { name: 'Add a mobile number' }));
    expect(screen.getByRole('heading', { name: 'Add a mobile number' })).toHaveFocus();
    await user.type(screen.getByRole('textbox', { name: 'New mobile number' }), '01632 960 111');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(screen.getByRole('alert', { name: 'There is a problem' })).toHaveTextContent(
      'Enter a UK mobile number',
    );
    expect(callsTo(startMobileChangeCall)).toHaveLength(0);
    const field = screen.getByRole('textbox', { name: 'New mobile number' });
    await user.clear(field);
    await user.type(field, '07700 900 912');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    await screen.findByRole('heading', { name: 'Enter the code we sent you' });
    await typeCode(user, '123456');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(/Your mobile number has been added/)).toBeInTheDocument();
    expect(screen.getByText('07700900912')).toBeInTheDocument();
  });

  it('gives focus back to the button when the change is cancelled', async () => {
    const user = userEvent.setup();
    fakePortal();
    render();
    await user.click(await screen.findByRole('button', { name: 'Change mobile number' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Change mobile number' })).toHaveFocus());
  });

  describe('a change being typed when the inactivity timer signs the customer out (issue 40 point 7)', () => {
    const kept = 'We kept what you were typing when we signed you out. Check it, then carry on.';
    const withTexts = { ...block, draftKeptText: kept, discardDraftText: 'Start again' } as typeof block;
    const renderWithTexts = () =>
      renderWithRoot(
        <QueryClientProvider client={createQueryClient()}>
          <ContactDetailsBlock block={withTexts} />
        </QueryClientProvider>,
        { path: '/profile/contact-details' },
      );
    afterEach(() => localStorage.clear());

    it('opens the change again with what was typed, never the code, saying so; gone once done', async () => {
      const user = userEvent.setup();
      fakePortal();
      const first = renderWithTexts();
      await user.click(await screen.findByRole('button', { name: 'Change email address' }));
      await user.type(screen.getByRole('textbox', { name: 'New email address' }), 'brenda.new@example.co.uk');
      await user.type(
        screen.getByRole('textbox', { name: 'Type the new email address again' }),
        'brenda.new@example',
      );
      expect(keepOpenDrafts('/profile/contact-details')).toBe('/profile/contact-details');
      // Only what the form hands over: the two fields as typed.
      const stored = JSON.parse(localStorage.getItem('portal.keptDrafts') ?? '{}') as Record<
        string,
        { values: unknown }
      >;
      expect(Object.values(stored).map((d) => d.values)).toEqual([
        { value: 'brenda.new@example.co.uk', again: 'brenda.new@example' },
      ]);
      first.unmount();

      renderWithTexts();
      expect((await screen.findByText(kept)).closest('[role="status"]')).not.toBeNull();
      expect(screen.getByRole('textbox', { name: 'New email address' })).toHaveValue(
        'brenda.new@example.co.uk',
      );
      const again = screen.getByRole('textbox', { name: 'Type the new email address again' });
      expect(again).toHaveValue('brenda.new@example');
      await user.type(again, '.co.uk');
      await user.click(screen.getByRole('button', { name: 'Send code' }));
      await screen.findByRole('heading', { name: 'Enter the code we sent you' });
      await typeCode(user, '123456');
      await user.click(screen.getByRole('button', { name: 'Confirm' }));
      expect(await screen.findByText(/Your email address has been changed/)).toBeInTheDocument();
      expect(localStorage.getItem('portal.keptDrafts')).toBeNull();
    });

    it('keeps nothing for an empty form, and Start again or Cancel throws the kept one away', async () => {
      const user = userEvent.setup();
      fakePortal();
      const empty = renderWithTexts();
      await user.click(await screen.findByRole('button', { name: 'Change mobile number' }));
      expect(keepOpenDrafts('/profile/contact-details')).toBeNull();
      await user.type(screen.getByRole('textbox', { name: 'New mobile number' }), '07700 900');
      expect(keepOpenDrafts('/profile/contact-details')).toBe('/profile/contact-details');
      empty.unmount();

      const again = renderWithTexts();
      expect(await screen.findByRole('textbox', { name: 'New mobile number' })).toHaveValue('07700 900');
      await user.click(screen.getByRole('button', { name: 'Start again' }));
      expect(screen.getByRole('textbox', { name: 'New mobile number' })).toHaveValue('');
      expect(screen.queryByText(kept)).not.toBeInTheDocument();
      expect(localStorage.getItem('portal.keptDrafts')).toBeNull();
      again.unmount();

      const other = renderWithTexts();
      await user.click(await screen.findByRole('button', { name: 'Change mobile number' }));
      await user.type(screen.getByRole('textbox', { name: 'New mobile number' }), '07700 900 1');
      keepOpenDrafts('/profile/contact-details');
      other.unmount();
      renderWithTexts();
      await user.click(await screen.findByRole('button', { name: 'Cancel' }));
      expect(localStorage.getItem('portal.keptDrafts')).toBeNull();
    });
  });
});

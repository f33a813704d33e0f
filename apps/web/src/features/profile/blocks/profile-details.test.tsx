import type { BlockOf } from '@portal/contracts/content';
import {
  getAgencyCall,
  getAgencyWithFallbackCall,
  getMutualDirectAgencyCall,
  listPoliciesCall,
  listQuotesCall,
} from '@portal/contracts/policy';
import { getProfileCall } from '@portal/contracts/profile';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createQueryClient } from '../../../session/query-client';
import { fakeApi, fakeCall } from '../../../test/fake-api/fake-api';
import { renderWithRoot } from '../../../test/render-with-root';
import { signedInAs } from '../../../test/signed-in';
import ContactDetailsBlock from './contact-details';
import PersonalDetailsBlock from './personal-details';

// The blocks as content has them (content/pages/profile-personal-details.json, profile-contact-details.json).
const personalBlock = {
  id: 'personal-details',
  type: 'personalDetails',
  labels: {
    name: 'Name',
    firstName: 'First name',
    lastName: 'Last name',
    dateOfBirth: 'Date of birth',
    address: 'Address',
  },
  loadingText: 'Loading your details…',
  errorText: '<p>Sorry, we cannot show your personal details at the moment. Please try again later.</p>',
  changeText: '<p>If any of these details are wrong, send us a message.</p>',
} as BlockOf<'personalDetails'>;

const contactBlock = {
  id: 'contact-details',
  type: 'contactDetails',
  labels: { email: 'Email address', mobile: 'Mobile number', landline: 'Home phone number' },
  loadingText: 'Loading your details…',
  errorText: '<p>Sorry, we cannot show your contact details at the moment. Please try again later.</p>',
} as BlockOf<'contactDetails'>;

const profile = (landlineNumber: string | null) => ({
  firstName: 'Helen',
  lastName: 'Dawson',
  dateOfBirthFormatted: '22/08/1968',
  addressLineOne: '1 Hill Road',
  addressLineTwo: '',
  addressLineThree: 'Pontesbury',
  town: 'Shrewsbury',
  county: 'Shropshire',
  postCode: 'SY5 8AB',
  emailAddress: 'helen.dawson@example.co.uk',
  mobileNumber: '07700900333',
  landlineNumber,
  passwordLastUpdated: null,
});

const render = (ui: React.ReactNode) =>
  renderWithRoot(<QueryClientProvider client={createQueryClient()}>{ui}</QueryClientProvider>);

/** The summary list as label and value pairs, in order. */
const rows = () =>
  screen.getAllByRole('term').map((term) => [term.textContent, term.nextElementSibling?.textContent]);

describe('profile details (spec customer-data §2)', () => {
  let signOut: () => void;
  beforeEach(() => {
    signOut = signedInAs('C1000007');
    // The rest of the user data (read with the profile) is not these blocks' concern: none held.
    fakeApi.use(
      fakeCall(listPoliciesCall, () => ({ status: 502 })),
      fakeCall(listQuotesCall, () => ({ status: 502 })),
      fakeCall(getAgencyCall, () => ({ status: 502 })),
      fakeCall(getAgencyWithFallbackCall, () => ({ status: 502 })),
      fakeCall(getMutualDirectAgencyCall, () => ({ status: 502 })),
    );
  });
  afterEach(() => signOut());

  it('personal details: names, date of birth and the address lines joined, after the loading text', async () => {
    fakeApi.use(fakeCall(getProfileCall, () => ({ status: 200, body: profile(null) })));
    render(<PersonalDetailsBlock block={personalBlock} />);
    expect(await screen.findByText('Loading your details…')).toBeInTheDocument();
    await screen.findByText('Helen');
    expect(rows()).toEqual([
      ['First name', 'Helen'],
      ['Last name', 'Dawson'],
      ['Date of birth', '22/08/1968'],
      ['Address', '1 Hill Road, Pontesbury, Shrewsbury, Shropshire, SY5 8AB'],
    ]);
    expect(screen.queryByText('Loading your details…')).not.toBeInTheDocument();
  });

  it.each([404, 502] as const)(
    'personal details: the error text when the profile is missing (profile call %s)',
    async (status) => {
      fakeApi.use(fakeCall(getProfileCall, () => ({ status })));
      render(<PersonalDetailsBlock block={personalBlock} />);
      expect(await screen.findByRole('alert')).toHaveTextContent(
        'Sorry, we cannot show your personal details at the moment. Please try again later.',
      );
      expect(screen.queryByRole('term')).not.toBeInTheDocument();
    },
  );

  it('contact details: email, mobile and the landline when one is held', async () => {
    fakeApi.use(fakeCall(getProfileCall, () => ({ status: 200, body: profile('01743 555019') })));
    render(<ContactDetailsBlock block={contactBlock} />);
    await screen.findByText('helen.dawson@example.co.uk');
    expect(rows()).toEqual([
      ['Email address', 'helen.dawson@example.co.uk'],
      ['Mobile number', '07700900333'],
      ['Home phone number', '01743 555019'],
    ]);
  });

  it.each([
    ['none', null],
    ['an empty one', ''],
  ])('contact details: no landline row when the profile holds %s', async (_, landline) => {
    fakeApi.use(fakeCall(getProfileCall, () => ({ status: 200, body: profile(landline) })));
    render(<ContactDetailsBlock block={contactBlock} />);
    await screen.findByText('helen.dawson@example.co.uk');
    expect(rows()).toEqual([
      ['Email address', 'helen.dawson@example.co.uk'],
      ['Mobile number', '07700900333'],
    ]);
    expect(screen.queryByText('Home phone number')).not.toBeInTheDocument();
  });

  it.each([
    ['none', null],
    ['an empty one', ''],
  ])('contact details: no mobile row when the profile holds %s, as for the landline', async (_, mobile) => {
    fakeApi.use(
      fakeCall(getProfileCall, () => ({
        status: 200,
        body: { ...profile('01743 555019'), mobileNumber: mobile },
      })),
    );
    render(<ContactDetailsBlock block={contactBlock} />);
    await screen.findByText('helen.dawson@example.co.uk');
    expect(rows()).toEqual([
      ['Email address', 'helen.dawson@example.co.uk'],
      ['Home phone number', '01743 555019'],
    ]);
    expect(screen.queryByText('Mobile number')).not.toBeInTheDocument();
  });

  it('contact details: no email row when none is held', async () => {
    fakeApi.use(
      fakeCall(getProfileCall, () => ({ status: 200, body: { ...profile(null), emailAddress: null } })),
    );
    render(<ContactDetailsBlock block={contactBlock} />);
    await screen.findByText('07700900333');
    expect(rows()).toEqual([['Mobile number', '07700900333']]);
  });

  it('personal details: no row for a value the profile does not hold', async () => {
    fakeApi.use(fakeCall(getProfileCall, () => ({ status: 200, body: { ...profile(null), lastName: ' ' } })));
    render(<PersonalDetailsBlock block={personalBlock} />);
    await screen.findByText('Helen');
    expect(screen.queryByText('Last name')).not.toBeInTheDocument();
    expect(screen.getByText('Date of birth')).toBeInTheDocument();
  });

  it('contact details: the error text when the profile is missing', async () => {
    fakeApi.use(fakeCall(getProfileCall, () => ({ status: 404 })));
    render(<ContactDetailsBlock block={contactBlock} />);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Sorry, we cannot show your contact details at the moment. Please try again later.',
    );
  });
});

import type { BlockOf } from '@portal/contracts/content';
import { getMutualDirectAgencyCall } from '@portal/contracts/policy';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createQueryClient } from '../../../session/query-client';
import { fakeApi, fakeCall } from '../../../test/fake-api/fake-api';
import { renderWithRoot } from '../../../test/render-with-root';
import { signedInAs } from '../../../test/signed-in';
import { serveCustomerData } from '../testing/customer-data';
import AgencyCardBlock from './agency-card';

// As content/pages/account-dashboard.json has it.
const block = {
  id: 'dashboard-agency',
  type: 'agencyCard',
  heading: 'Your local office',
  labels: { phone: 'Phone', address: 'Address', website: 'Website' },
  mapLinkText: 'See on a map (opens in a new tab)',
  openingHoursText: 'Our lines are open Monday to Friday, {open} to {close}, and Saturday, 9am to 5pm.',
  fallback: {
    heading: 'Contact us',
    body: '<p>Call us free on <a href="tel:08001234567">0800 123 4567</a>.</p>',
    callsToAction: [],
  },
} as BlockOf<'agencyCard'>;

describe('agency card without an agency (the Mutual Direct fallback)', () => {
  let signOut: () => void;
  beforeEach(() => {
    signOut = signedInAs('C1000002');
  });
  afterEach(() => signOut());

  it("states the direct line's hours once, from its record, as customers read times", async () => {
    serveCustomerData({});
    fakeApi.use(
      fakeCall(getMutualDirectAgencyCall, () => ({
        status: 200,
        body: {
          name: 'Meridian Mutual Direct',
          url: null,
          telephoneNumber: '0800 123 4567',
          address: 'Meridian House, Stratford-upon-Avon',
          latitude: 52.19,
          longitude: -1.68,
          mutualDirectTelephonesOpen: '08:00',
          mutualDirectTelephonesClose: '17:30',
        },
      })),
    );
    renderWithRoot(
      <QueryClientProvider client={createQueryClient()}>
        <AgencyCardBlock block={block} />
      </QueryClientProvider>,
    );
    const card = (await screen.findByRole('heading', { name: 'Contact us' })).closest('section')!;
    expect(card).toHaveTextContent('Call us free on 0800 123 4567.');
    expect(
      screen.getByText('Our lines are open Monday to Friday, 8am to 5:30pm, and Saturday, 9am to 5pm.'),
    ).toBeInTheDocument();
    expect(card.textContent?.match(/Monday to Friday/g)).toHaveLength(1);
  });
});

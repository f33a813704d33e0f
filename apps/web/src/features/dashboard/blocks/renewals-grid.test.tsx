import type { BlockOf } from '@portal/contracts/content';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createQueryClient } from '../../../session/query-client';
import { testPolicySummary } from '../../../test/policy-fixtures';
import { renderWithRoot } from '../../../test/render-with-root';
import { signedInAs } from '../../../test/signed-in';
import { serveCustomerData } from '../testing/customer-data';
import RenewalsGridBlock from './renewals-grid';

const block = {
  id: 'dashboard-renewals',
  type: 'renewalsGrid',
  heading: 'Policies due for renewal',
  labels: { policyNumber: 'Policy number', renewalDate: 'Renewal date', vehicles: 'Vehicles' },
  viewRenewalText: 'View renewal',
} as BlockOf<'renewalsGrid'>;

describe('renewals grid (spec customer-data §2)', () => {
  let signOut: () => void;
  beforeEach(() => {
    signOut = signedInAs('C1000007');
  });
  afterEach(() => signOut());

  it('names the lines of business as the cover labels do, Home first, never by their codes', async () => {
    serveCustomerData({
      renewing: [
        testPolicySummary({
          policyNumber: '708Q10000006',
          productName: 'Fine Art and Collectables Insurance',
          productType: 'NGB',
          status: 'Renewing',
          lineOfBusinessTypes: ['FineArt'],
        }),
        testPolicySummary({
          policyNumber: '123X0000002',
          productName: 'Home and Valuables Insurance',
          productType: 'PHL',
          status: 'RenewalCustomerReady',
          lineOfBusinessTypes: ['Valuables', 'Home'],
        }),
      ],
    });
    renderWithRoot(
      <QueryClientProvider client={createQueryClient()}>
        <RenewalsGridBlock block={block} />
      </QueryClientProvider>,
      { path: '/account/dashboard' },
    );
    const cards = await screen.findAllByRole('listitem');
    expect(within(cards[0]!).getByText('Fine art and collectables')).toBeInTheDocument();
    expect(
      within(cards[1]!).getByText('Home cover: buildings and contents, Valuables away from home'),
    ).toBeInTheDocument();
    expect(screen.queryByText(/FineArt/)).not.toBeInTheDocument();
  });
});

import type { PageOf } from '@portal/contracts/content';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { policies, serveCustomerData } from '../dashboard/testing/customer-data';
import { createQueryClient } from '../../session/query-client';
import { page } from '../../test/content-fixtures';
import { renderWithRoot } from '../../test/render-with-root';
import { signedInAs } from '../../test/signed-in';
import PolicyPage from './policy-page';

const policyPage = page('/account/policies') as PageOf<'PolicyPage'>;

function show(path: string) {
  return renderWithRoot(
    <QueryClientProvider client={createQueryClient()}>
      <PolicyPage page={policyPage} />
    </QueryClientProvider>,
    { path },
  );
}

describe('policy page without a policy id (the main menu’s "Your policies")', () => {
  let signOut: () => void;
  beforeEach(() => {
    signOut = signedInAs('C1000007');
  });
  afterEach(() => signOut());

  it('lists the customer’s policies by active, upcoming and expired, never "cannot find that policy"', async () => {
    serveCustomerData({
      active: policies(2, 'Active'),
      renewing: policies(1, 'Renewing', 3),
      upcoming: policies(1, 'Upcoming', 4),
      expired: policies(1, 'Expired', 5),
    });
    const { router } = show('/account/policies');
    expect(await screen.findByRole('heading', { level: 1, name: 'Your policies' })).toBeInTheDocument();
    expect(document.title).toBe('Your policies – Meridian Mutual');
    const active = await screen.findByRole('region', { name: 'Active' });
    const groups = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(groups).toEqual(['Active', 'Upcoming', 'Expired']);
    expect(
      within(active)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual([
      'Active policy 1, 123X0000001',
      'Active policy 2, 123X0000002',
      'Renewing policy 3, 123X0000003',
    ]);
    expect(screen.queryByText(/cannot find that policy/)).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('link', { name: 'Expired policy 5, 123X0000005' }));
    expect(router.state.location.pathname).toBe('/account/policies');
    expect(router.state.location.search).toBe('?id=123X0000005');
  });

  it('says the customer has no policies, with the way to the dashboard, when there are none', async () => {
    serveCustomerData({});
    show('/account/policies/cover');
    expect(await screen.findByText(/You have no policies with us at the moment/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to your dashboard' })).toHaveAttribute(
      'href',
      '/account/dashboard',
    );
    expect(screen.queryByText(/cannot find that policy/)).not.toBeInTheDocument();
  });
});

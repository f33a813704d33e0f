import { listPoliciesCall, type PolicySummary } from '@portal/contracts/policy';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../session/query-client';
import { fakeApi, fakeCall } from '../../test/fake-api/fake-api';
import { renderWithRoot } from '../../test/render-with-root';
import { signedInAs } from '../../test/signed-in';
import { PolicySubNavigation } from './policy-sub-navigation';
import { testPolicy } from '../../test/policy-fixtures';

const summary = (overrides: Partial<PolicySummary>): PolicySummary => {
  const { linesOfBusiness: _lines, ...rest } = testPolicy(overrides);
  return rest;
};

describe('policy sub-navigation (spec customer-data §2)', () => {
  let signOut: () => void;
  beforeEach(() => {
    signOut = signedInAs('C1000007');
    window.dataLayer = [];
    fakeApi.use(
      fakeCall(listPoliciesCall, () => ({
        status: 200,
        body: {
          active: [summary({ policyNumber: '123X4567890' })],
          renewing: [],
          upcoming: [
            summary({ policyNumber: '123X7654321', status: 'Upcoming', productName: 'Motor Insurance' }),
          ],
          expired: [],
          currentPage: 1,
          lastPage: 1,
          totalRecords: 2,
        },
      })),
    );
  });
  afterEach(() => signOut());

  it('sends the policies navigation virtual page view when opened, and links each policy by its id', async () => {
    const { router } = renderWithRoot(
      <QueryClientProvider client={createQueryClient()}>
        <PolicySubNavigation current="123X4567890" label="Your other policies" />
      </QueryClientProvider>,
      { path: '/account/policies/cover?id=123X4567890' },
    );
    const toggle = await screen.findByText('Your other policies');
    expect(window.dataLayer).toEqual([]);

    await userEvent.click(toggle);
    await vi.waitFor(() =>
      expect(window.dataLayer).toEqual([
        expect.objectContaining({ event: 'virtualPageView', virtualPagePath: '/dcs/nav/policies/' }),
      ]),
    );
    // Closing it again is not a view.
    await userEvent.click(toggle);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(window.dataLayer).toHaveLength(1);

    await userEvent.click(toggle);
    await userEvent.click(screen.getByRole('link', { name: /Motor Insurance/ }));
    expect(router.state.location.pathname).toBe('/account/policies/cover');
    expect(router.state.location.search).toBe('?id=123X7654321');
  });
});

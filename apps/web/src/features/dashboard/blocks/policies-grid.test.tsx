import type { BlockOf } from '@portal/contracts/content';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../session/query-client';
import { renderWithRoot } from '../../../test/render-with-root';
import { signedInAs } from '../../../test/signed-in';
import { policies, serveCustomerData } from '../testing/customer-data';
import PoliciesGridBlock from './policies-grid';

const block = {
  id: 'dashboard-policies',
  type: 'policiesGrid',
  heading: 'Your policies',
  filterLabels: { active: 'Active', upcoming: 'Upcoming', expired: 'Expired' },
  filterAriaLabel: 'Show policies that are',
  loadMoreText: 'Show more policies',
  loadMoreAddedText: 'More policies shown: {count}',
  availableText: '{count} {status} policies available to view',
  viewPolicyText: 'View policy',
  labels: {},
  pageSize: 3,
  errorText: '<p>Sorry, we cannot show your policies at the moment.</p>',
  noPolicies: {
    heading: 'We cannot find any policies',
    body: '<p>There are no policies linked to your account yet.</p>',
    callsToAction: [{ text: 'Call us', link: 'tel:08001234567', linkType: 'Default', opensIn: 'SameTab' }],
  },
} as BlockOf<'policiesGrid'>;

function show() {
  return renderWithRoot(
    <QueryClientProvider client={createQueryClient()}>
      <PoliciesGridBlock block={block} />
    </QueryClientProvider>,
    { path: '/account/dashboard' },
  );
}

const cardTitles = () =>
  within(screen.getByRole('list'))
    .getAllByRole('heading', { level: 3 })
    .map((h) => h.textContent);

describe('policies grid (spec customer-data §2, §4, §9)', () => {
  let signOut: () => void;
  beforeEach(() => {
    signOut = signedInAs('C1000007');
  });
  afterEach(() => {
    vi.useRealTimers();
    signOut();
  });

  it('shows 3 policies, then 3 more per load more, with the "N active policies available to view" line', async () => {
    serveCustomerData({ active: policies(5, 'Active'), renewing: policies(2, 'Renewing', 6) });
    show();
    expect(await screen.findByText('7 active policies available to view')).toBeInTheDocument();
    expect(cardTitles()).toEqual(['Active policy 1', 'Active policy 2', 'Active policy 3']);

    await userEvent.click(screen.getByRole('button', { name: 'Show more policies' }));
    expect(cardTitles()).toHaveLength(6);
    await userEvent.click(screen.getByRole('button', { name: 'Show more policies' }));
    expect(cardTitles()).toHaveLength(7);
    expect(cardTitles().at(-1)).toBe('Renewing policy 7');
    expect(screen.queryByRole('button', { name: 'Show more policies' })).not.toBeInTheDocument();
  });

  it('moves focus to the first card load more adds, and says how many were added', async () => {
    serveCustomerData({ active: policies(5, 'Active') });
    show();
    const button = await screen.findByRole('button', { name: 'Show more policies' });
    button.focus();
    await userEvent.keyboard('{Enter}');
    const fourth = screen.getByRole('heading', { name: 'Active policy 4' }).closest('li')!;
    expect(fourth).toHaveFocus();
    expect(screen.getByText('More policies shown: 2')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show more policies' })).not.toBeInTheDocument();
  });

  it('counts per category: filter pills only for groups with policies, each with its own 3 more', async () => {
    serveCustomerData({ active: policies(4, 'Active'), expired: policies(5, 'Expired', 10) });
    show();
    const pills = await screen.findByRole('group', { name: 'Show policies that are' });
    expect(
      within(pills)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Active (4)', 'Expired (5)']);
    expect(within(pills).getByRole('button', { name: 'Active (4)' })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(screen.getByRole('button', { name: 'Show more policies' }));
    expect(cardTitles()).toHaveLength(4);

    await userEvent.click(within(pills).getByRole('button', { name: 'Expired (5)' }));
    expect(screen.getByText('5 expired policies available to view')).toBeInTheDocument();
    expect(cardTitles()).toEqual(['Expired policy 10', 'Expired policy 11', 'Expired policy 12']);
    await userEvent.click(screen.getByRole('button', { name: 'Show more policies' }));
    expect(cardTitles()).toHaveLength(5);
  });

  it('goes back to 3 policies five minutes (300000 ms) after the last load more', async () => {
    serveCustomerData({ upcoming: policies(8, 'Upcoming') });
    show();
    expect(await screen.findByText('8 upcoming policies available to view')).toBeInTheDocument();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const more = () => screen.getByRole('button', { name: 'Show more policies' });

    fireEvent.click(more());
    act(() => vi.advanceTimersByTime(200_000));
    // A second load more starts the five minutes again.
    fireEvent.click(more());
    expect(cardTitles()).toHaveLength(8);
    act(() => vi.advanceTimersByTime(299_999));
    expect(cardTitles()).toHaveLength(8);
    act(() => vi.advanceTimersByTime(1));
    expect(cardTitles()).toHaveLength(3);
    expect(more()).toBeInTheDocument();
  });

  it('has no count line and no load more for 3 policies or fewer', async () => {
    serveCustomerData({ expired: policies(3, 'Expired') });
    show();
    expect(await screen.findByText('Expired policy 3')).toBeInTheDocument();
    expect(screen.queryByText(/policies available to view/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show more policies' })).not.toBeInTheDocument();
    expect(screen.queryByRole('group')).not.toBeInTheDocument();
  });

  it('shows the no-policies template when the customer has none', async () => {
    serveCustomerData({});
    show();
    expect(await screen.findByRole('heading', { name: 'We cannot find any policies' })).toBeInTheDocument();
    expect(screen.getByText('There are no policies linked to your account yet.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Call us' })).toHaveAttribute('href', 'tel:08001234567');
  });
});

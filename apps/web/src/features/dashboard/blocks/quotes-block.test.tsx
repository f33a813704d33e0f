import type { BlockOf } from '@portal/contracts/content';
import type { Quote } from '@portal/contracts/policy';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createQueryClient } from '../../../session/query-client';
import { makeSettings } from '../../../test/content-fixtures';
import { renderWithRoot } from '../../../test/render-with-root';
import { signedInAs } from '../../../test/signed-in';
import { serveCustomerData } from '../testing/customer-data';
import QuotesBlock from './quotes-block';

const block = {
  id: 'dashboard-quotes',
  type: 'quotes',
  heading: 'Your quotes',
  labels: { quoteNumber: 'Quote reference', startDate: 'Cover would start' },
  downloadText: 'Download quote',
  continueOnlineText: 'Continue your quote',
  // As the content service serves it: the freephone number written in where content says {phone}.
  continueByPhoneText:
    'This quote cannot be continued online. To continue it, call us free on 0800 123 4567.',
  noQuotes: { heading: 'You have no saved quotes', body: '<p>Quotes appear here.</p>', callsToAction: [] },
  fileError: '<p>Sorry, we cannot open this document.</p>',
} as BlockOf<'quotes'>;

const quote = (quoteNumber: string, productType: string, online: boolean): Quote => ({
  quoteNumber,
  productType,
  startDate: '2026-12-08',
  documents: { documentSummaries: [{ id: `${quoteNumber}-summary`, name: 'Quote summary' }] },
  quoteActions: {
    onlineQuoteAndBuy: {
      enabled: online,
      url: online ? `https://policy.example/quote/${quoteNumber}` : null,
    },
  },
});

function show() {
  return renderWithRoot(
    <QueryClientProvider client={createQueryClient()}>
      <QuotesBlock block={block} />
    </QueryClientProvider>,
    {
      path: '/account/dashboard',
      settings: makeSettings({
        policyTypeMappingText: { PHL: 'Home Insurance', PAH: 'Valuables Insurance' },
        infinityPhoneTracking: '0800 123 4567',
      }),
    },
  );
}

describe('quotes (spec customer-data §2, §6)', () => {
  let signOut: () => void;
  beforeEach(() => {
    signOut = signedInAs('C1000007');
  });
  afterEach(() => signOut());

  it('names each quote by its product from settings, falling back to the product code', async () => {
    serveCustomerData({
      quotes: [quote('102Q90000001', 'PAH', true), quote('102Q90000002', 'ZZZ', false)],
    });
    show();
    const cards = await screen.findAllByRole('listitem');
    expect(cards.map((card) => within(card).getByRole('heading', { level: 3 }).textContent)).toEqual([
      'Valuables Insurance',
      'ZZZ',
    ]);
    expect(screen.queryByRole('heading', { name: 'PAH' })).not.toBeInTheDocument();

    // Continue online only where the quote allows it.
    expect(within(cards[0]!).getByRole('link', { name: /^Continue your quote/ })).toHaveAttribute(
      'href',
      'https://policy.example/quote/102Q90000001',
    );
    // Not online: the button says it is not available and why (from content, with the freephone number).
    const byPhone = within(cards[1]!).getByRole('button', { name: /^Continue your quote/ });
    expect(byPhone).toHaveAttribute('aria-disabled', 'true');
    expect(byPhone).toHaveAccessibleDescription(
      'This quote cannot be continued online. To continue it, call us free on 0800 123 4567.',
    );
    expect(within(cards[1]!).getByRole('link', { name: '0800 123 4567' })).toHaveAttribute(
      'href',
      'tel:08001234567',
    );
    expect(within(cards[0]!).queryByText(/cannot be continued online/)).not.toBeInTheDocument();
    expect(within(cards[1]!).getByRole('button', { name: /^Download quote/ })).toBeEnabled();
  });

  it('shows the no-quotes block when there are none', async () => {
    serveCustomerData({ quotes: [] });
    show();
    expect(await screen.findByRole('heading', { name: 'You have no saved quotes' })).toBeInTheDocument();
  });
});

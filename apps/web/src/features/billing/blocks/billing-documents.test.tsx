import type { BlockOf } from '@portal/contracts/content';
import { listBillingDocumentsCall } from '@portal/contracts/document';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createQueryClient } from '../../../app/query-client';
import { fakeApi, fakeCall } from '../../../test/fake-api/fake-api';
import { renderWithRoot } from '../../../test/render-with-root';
import { signedInAs } from '../../../test/signed-in';
import BillingDocumentsBlock, { byAccount } from './billing-documents';

const block = {
  id: 'billing-documents',
  type: 'billingDocuments',
  accountLabel: 'Billing account',
  viewPdfText: 'View PDF',
  loadMoreText: 'Show more bills',
  pageSize: { mobile: 2, desktop: 2 },
  messages: {
    apiError: '<p>Sorry, we cannot show your bills at the moment.</p>',
    noDocsError: '<p>When we send you a bill, you will find it here.</p>',
    noDocsErrorHeading: 'You have no bills yet',
    fileError: '<p>Sorry, we cannot open this bill at the moment.</p>',
  },
} as BlockOf<'billingDocuments'>;

const doc = (id: string, date: string) => ({ id, name: `Statement ${id}`, date });
const pages = [
  {
    currentPage: 1,
    lastPage: 2,
    pageSize: 2,
    totalRecords: 3,
    data: [
      { accountNumber: 'BA1', documentSummaries: [doc('a', '2026-11-01')] },
      { accountNumber: 'BA2', documentSummaries: [doc('b', '2026-10-15')] },
    ],
  },
  {
    currentPage: 2,
    lastPage: 2,
    pageSize: 2,
    totalRecords: 3,
    data: [{ accountNumber: 'BA1', documentSummaries: [doc('c', '2026-10-01')] }],
  },
];

const render = () =>
  renderWithRoot(
    <QueryClientProvider client={createQueryClient()}>
      <BillingDocumentsBlock block={block} />
    </QueryClientProvider>,
    { path: '/account/bills-and-payments' },
  );

describe('bills and payments', () => {
  let signOut: () => void;
  beforeEach(() => {
    signOut = signedInAs('C1000007');
  });
  afterEach(() => signOut());

  it('keeps an account together when it continues onto the next page', () => {
    expect(byAccount(pages).map((a) => [a.accountNumber, a.documentSummaries.map((d) => d.id)])).toEqual([
      ['BA1', ['a', 'c']],
      ['BA2', ['b']],
    ]);
  });

  it('shows bills per account with their dates, and loads more', async () => {
    fakeApi.use(
      fakeCall(listBillingDocumentsCall, ({ query }) => ({
        status: 200,
        body: pages[Number(query.get('page')) - 1]!,
      })),
    );
    render();
    expect(await screen.findByRole('heading', { name: 'Billing account BA1' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Billing account BA2' })).toBeInTheDocument();
    expect(screen.getByText('1 November 2026')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /^View PDF/ })).toHaveLength(2);
    await userEvent.click(screen.getByRole('button', { name: 'Show more bills' }));
    expect(await screen.findByText('1 October 2026')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /^View PDF/ })).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Show more bills' })).not.toBeInTheDocument();
  });

  it('says when there are no bills, and when they cannot be shown', async () => {
    fakeApi.use(
      fakeCall(listBillingDocumentsCall, () => ({
        status: 200,
        body: { currentPage: 1, lastPage: 1, pageSize: 2, totalRecords: 0, data: [] },
      })),
    );
    const first = render();
    expect(await screen.findByRole('heading', { name: 'You have no bills yet' })).toBeInTheDocument();
    first.unmount();
    fakeApi.use(fakeCall(listBillingDocumentsCall, () => ({ status: 500 })));
    render();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Sorry, we cannot show your bills at the moment.',
    );
  });
});

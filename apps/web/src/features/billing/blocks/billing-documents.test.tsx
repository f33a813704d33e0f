import type { BlockOf } from '@portal/contracts/content';
import { getBillingDocumentPdfCall, listBillingDocumentsCall } from '@portal/contracts/document';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../session/query-client';
import { fakeApi, fakeCall } from '../../../test/fake-api/fake-api';
import { renderWithRoot } from '../../../test/render-with-root';
import { signedInAs } from '../../../test/signed-in';
import BillingDocumentsBlock, { byAccount } from './billing-documents';

const block = {
  id: 'billing-documents',
  type: 'billingDocuments',
  heading: 'Your bills',
  loadingText: 'Loading your bills…',
  accountLabel: 'Billing account',
  viewPdfText: 'View PDF',
  loadMoreText: 'Show more bills',
  loadMoreAddedText: 'More bills shown: {count}',
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
  afterEach(() => {
    signOut();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

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

  it('moves focus to the first bill load more adds (not the page body) and says how many were added', async () => {
    fakeApi.use(
      fakeCall(listBillingDocumentsCall, ({ query }) => ({
        status: 200,
        body: pages[Number(query.get('page')) - 1]!,
      })),
    );
    render();
    const button = await screen.findByRole('button', { name: 'Show more bills' });
    button.focus();
    await userEvent.keyboard('{Enter}');
    // The new bill joins its account's list, above bills shown before: focus finds it, not the third row.
    const added = (await screen.findByText('1 October 2026')).closest('li')!;
    await vi.waitFor(() => expect(added).toHaveFocus());
    expect(document.body).not.toHaveFocus();
    expect(screen.getByText('More bills shown: 1')).toBeInTheDocument();
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

  /** A window this many pixels wide: matchMedia answers min-width and max-width queries by it. */
  const windowOf = (width: number) =>
    vi.stubGlobal('matchMedia', (query: string) => {
      const min = /min-width:\s*(\d+)px/.exec(query);
      const max = /max-width:\s*(\d+)px/.exec(query);
      return {
        media: query,
        matches: (!min || width >= Number(min[1])) && (!max || width <= Number(max[1])),
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
      };
    });

  it.each([
    [375, 3],
    [1280, 8],
  ])('at %i pixels asks for the page size content gives that screen (%i)', async (width, size) => {
    windowOf(width);
    const asked: string[] = [];
    fakeApi.use(
      fakeCall(listBillingDocumentsCall, ({ query }) => {
        asked.push(`${query.get('page')}/${query.get('pageSize')}`);
        return {
          status: 200,
          body: { currentPage: 1, lastPage: 1, pageSize: size, totalRecords: 1, data: [pages[0]!.data[0]!] },
        };
      }),
    );
    renderWithRoot(
      <QueryClientProvider client={createQueryClient()}>
        <BillingDocumentsBlock block={{ ...block, pageSize: { mobile: 3, desktop: 8 } }} />
      </QueryClientProvider>,
      { path: '/account/bills-and-payments' },
    );
    expect(await screen.findByRole('heading', { name: 'Billing account BA1' })).toBeInTheDocument();
    expect(asked).toEqual([`1/${size}`]);
  });

  it('shows the file error beside the bill whose PDF fails, and saves one that works', async () => {
    fakeApi.use(
      fakeCall(listBillingDocumentsCall, () => ({ status: 200, body: pages[0]! })),
      fakeCall(getBillingDocumentPdfCall, ({ params }) =>
        params.docId === 'b'
          ? { status: 502 }
          : {
              status: 200,
              raw: new Uint8Array([37, 80, 68, 70]),
              headers: {
                'Content-Type': 'application/pdf',
                'Content-Disposition': 'attachment; filename="Statement-a.pdf"',
              },
            },
      ),
    );
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // jsdom makes no object URLs; the real URL class otherwise, so the API client still builds its URLs.
    vi.stubGlobal(
      'URL',
      class extends URL {
        static override createObjectURL = () => 'blob:bill';
        static override revokeObjectURL = () => undefined;
      },
    );
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    render();

    const row = async (name: string) =>
      (await screen.findByText(name, { selector: '.document-row__name' })).closest('li')!;
    const broken = await row('Statement b');
    await userEvent.click(within(broken).getByRole('button', { name: 'View PDF Statement b' }));
    expect(await within(broken).findByRole('alert')).toHaveTextContent(
      'Sorry, we cannot open this bill at the moment.',
    );

    const working = await row('Statement a');
    await userEvent.click(within(working).getByRole('button', { name: 'View PDF Statement a' }));
    await vi.waitFor(() => expect(saved).toEqual(['Statement-a.pdf']));
    expect(within(working).queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });
});

import type { BlockOf } from '@portal/contracts/content';
import { getPolicyDocumentPdfCall, listPolicyDocumentsCall } from '@portal/contracts/document';
import { getPolicyCall } from '@portal/contracts/policy';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../session/query-client';
import { fakeApi, fakeCall } from '../../../test/fake-api/fake-api';
import { renderWithRoot } from '../../../test/render-with-root';
import { signedInAs } from '../../../test/signed-in';
import { testPolicy } from '../../../test/policy-fixtures';
import { PolicyDocumentsBlock } from './policy-documents';

const block = {
  id: 'policy-documents',
  type: 'policyDocumentPacks',
  downloadText: 'Download',
  loadMoreText: 'Show more documents',
  loadMoreAddedText: 'More documents shown: {count}',
  createdLabel: 'Issued on',
  pageSize: { mobile: 2, desktop: 2 },
  messages: {
    apiError: '<p>Sorry, we cannot show your documents at the moment.</p>',
    noDocsError: '<p>There are no documents for this policy yet.</p>',
    noDocsErrorHeading: 'No documents yet',
    fileError: '<p>Sorry, we cannot open this document at the moment.</p>',
  },
  inserts: [
    { id: 'ins-home', title: 'Home policy wording', productTypes: ['PHL'], url: '/documents/home.pdf' },
    { id: 'ins-motor', title: 'Motor policy wording', productTypes: ['MPC'], url: '/documents/motor.pdf' },
  ],
} as BlockOf<'policyDocumentPacks'>;

const pack = (n: number) => ({
  title: `Pack ${n}`,
  createDate: `2026-0${n}-01T09:00:00Z`,
  documentSummaries: [{ id: `doc-${n}`, name: `Schedule ${n}`, date: `2026-0${n}-01` }],
});

function render() {
  return renderWithRoot(
    <QueryClientProvider client={createQueryClient()}>
      <PolicyDocumentsBlock block={block} />
    </QueryClientProvider>,
    { path: '/account/policies/documents?id=123X4567890' },
  );
}

describe('policy documents', () => {
  let signOut: () => void;
  beforeEach(() => {
    signOut = signedInAs('C1000007');
    fakeApi.use(fakeCall(getPolicyCall, () => ({ status: 200, body: testPolicy() })));
  });
  afterEach(() => {
    signOut();
    vi.restoreAllMocks();
    delete window.dataLayer;
  });

  it('lists packs a page at a time, loads more, and offers the inserts for the product only', async () => {
    const pages: number[] = [];
    fakeApi.use(
      fakeCall(listPolicyDocumentsCall, ({ query }) => {
        const page = Number(query.get('page'));
        pages.push(page);
        const all = [pack(3), pack(2), pack(1)];
        const size = Number(query.get('pageSize'));
        return {
          status: 200,
          body: {
            currentPage: page,
            lastPage: 2,
            pageSize: size,
            totalRecords: 3,
            data: all.slice((page - 1) * size, page * size),
          },
        };
      }),
    );
    render();
    expect(await screen.findByRole('heading', { name: 'Pack 3' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Pack 2' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Pack 1' })).not.toBeInTheDocument();
    expect(screen.getByText('Issued on 1 March 2026')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download Home policy wording' })).toBeInTheDocument();
    expect(screen.queryByText('Motor policy wording')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Show more documents' }));
    const added = await screen.findByRole('heading', { name: 'Pack 1' });
    expect(screen.queryByRole('button', { name: 'Show more documents' })).not.toBeInTheDocument();
    expect(pages).toEqual([1, 2]);
    // Focus moves to the pack load more added, not to the page body, and the number added is announced.
    await vi.waitFor(() => expect(added.closest('li')).toHaveFocus());
    expect(screen.getByText('More documents shown: 1')).toBeInTheDocument();
  });

  it('shows the file error beside a document that cannot be opened, and saves one that can', async () => {
    fakeApi.use(
      fakeCall(listPolicyDocumentsCall, () => ({
        status: 200,
        body: { currentPage: 1, lastPage: 1, pageSize: 2, totalRecords: 2, data: [pack(2), pack(1)] },
      })),
      fakeCall(getPolicyDocumentPdfCall, ({ params }) =>
        params.docId === 'doc-2'
          ? { status: 500 }
          : {
              status: 200,
              raw: new Uint8Array([37, 80, 68, 70]),
              headers: {
                'Content-Type': 'application/pdf',
                'Content-Disposition': 'attachment; filename="Schedule-123X4567890.pdf"',
              },
            },
      ),
    );
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const createObjectURL = vi.fn(() => 'blob:doc');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    render();

    const broken = (await screen.findByText('Schedule 2', { selector: '.document-row__name' })).closest(
      'li',
    )!;
    await userEvent.click(within(broken).getByRole('button', { name: /^Download/ }));
    expect(await within(broken).findByRole('alert')).toHaveTextContent(
      'Sorry, we cannot open this document at the moment.',
    );
    // The customer reads content's file error; analytics and the log get the spec's specific error.
    expect(window.dataLayer?.at(-1)).toMatchObject({
      event: 'documentDownloadFailed',
      documentTitle: 'Schedule 2 123X4567890',
      errorMessage: 'Document binary stream unavailable',
    });
    expect(errors).toHaveBeenCalledWith('Document download failed: Document binary stream unavailable');

    const working = screen.getByText('Schedule 1', { selector: '.document-row__name' }).closest('li')!;
    await userEvent.click(within(working).getByRole('button', { name: /^Download/ }));
    await vi.waitFor(() => expect(clicks).toEqual(['Schedule-123X4567890.pdf']));
    expect(within(working).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('downloads the inserts for the product, and a blank insert address fails with its event', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    fakeApi.use(
      fakeCall(listPolicyDocumentsCall, () => ({
        status: 200,
        body: { currentPage: 1, lastPage: 1, pageSize: 2, totalRecords: 0, data: [] },
      })),
      http.get('*/documents/home.pdf', () =>
        HttpResponse.arrayBuffer(new Uint8Array([37, 80, 68, 70]).buffer, {
          headers: {
            'Content-Type': 'application/pdf',
            'Content-Disposition': 'attachment; filename="home-policy-wording.pdf"',
          },
        }),
      ),
    );
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() }),
    );
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    renderWithRoot(
      <QueryClientProvider client={createQueryClient()}>
        <PolicyDocumentsBlock
          block={{
            ...block,
            insertsHeading: 'Guides for your policy',
            inserts: [
              ...block.inserts,
              { id: 'ins-blank', title: 'Complaints leaflet', productTypes: ['PHL'], url: '' },
            ],
          }}
        />
      </QueryClientProvider>,
      { path: '/account/policies/documents?id=123X4567890' },
    );
    expect(await screen.findByRole('heading', { name: 'Guides for your policy' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Download Home policy wording' }));
    await vi.waitFor(() => expect(saved).toEqual(['home-policy-wording.pdf']));
    expect(window.dataLayer?.at(-1)).toMatchObject({
      event: 'documentDownload',
      elementTitle: 'policy document inserts',
      documentTitle: 'Home policy wording',
    });

    const blank = screen.getByText('Complaints leaflet', { selector: '.document-row__name' }).closest('li')!;
    await userEvent.click(within(blank).getByRole('button', { name: 'Download Complaints leaflet' }));
    expect(await within(blank).findByRole('alert')).toHaveTextContent(
      'Sorry, we cannot open this document at the moment.',
    );
    expect(window.dataLayer?.at(-1)).toMatchObject({
      event: 'documentDownloadFailed',
      documentTitle: 'Complaints leaflet',
      fileUrl: '',
      errorMessage: 'Blank document URL',
    });
    expect(errors).toHaveBeenCalledWith('Document download failed: Blank document URL');
    expect(saved).toHaveLength(1);
  });

  it('says there are no documents yet, or that the list cannot be shown', async () => {
    fakeApi.use(
      fakeCall(listPolicyDocumentsCall, () => ({
        status: 200,
        body: { currentPage: 1, lastPage: 1, pageSize: 2, totalRecords: 0, data: [] },
      })),
    );
    const first = render();
    expect(await screen.findByRole('heading', { name: 'No documents yet' })).toBeInTheDocument();
    expect(screen.getByText('There are no documents for this policy yet.')).toBeInTheDocument();
    first.unmount();

    fakeApi.use(fakeCall(listPolicyDocumentsCall, () => ({ status: 502 })));
    render();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Sorry, we cannot show your documents at the moment.',
    );
  });
});

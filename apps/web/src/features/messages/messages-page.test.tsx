import { pageContent, type PageOf } from '@portal/contracts/content';
import { getBillingDocumentPdfCall } from '@portal/contracts/document';
import {
  getMessageCall,
  listMessagesCall,
  type CustomerMessage,
  type MessageSummary,
} from '@portal/contracts/message';
import { unreadMessageCountCall } from '@portal/contracts/message-count';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../session/query-client';
import { fakeApi, fakeCall } from '../../test/fake-api/fake-api';
import { renderWithRoot } from '../../test/render-with-root';
import { signedInAs } from '../../test/signed-in';
import MessagesPage from './messages-page';

const messagesPage = pageContent.parse({
  id: 'page-account-messages',
  type: 'MessagesPage',
  url: '/account/messages',
  name: 'Your messages',
  requiresAuthentication: true,
  meta: { title: 'Your messages' },
  heading: 'Your messages',
  list: {
    loadingText: 'Loading your messages',
    apiError: '<p>Sorry, we cannot show your messages at the moment.</p>',
    emptyHeading: 'You have no messages',
    emptyText: '<p>When we send you a message, you will find it here.</p>',
    unreadText: 'Unread',
    receivedLabel: 'Received',
    loadMoreText: 'Show more messages',
    loadMoreAddedText: 'More messages shown: {count}',
    pageSize: { mobile: 2, desktop: 2 },
  },
  message: {
    loadingText: 'Loading your message',
    notFoundText: '<p>We cannot find that message in your account.</p>',
    apiError: '<p>Sorry, we cannot show this message at the moment.</p>',
    receivedLabel: 'Received',
    linksHeading: 'About this message',
    policyLinkText: 'See your {productName} policy, {policyNumber}',
    documentButtonText: 'Download',
    fileError: '<p>Sorry, we cannot open this document at the moment.</p>',
    backText: 'Back to your messages',
  },
  categories: { renewal: 'Renewal', payment: 'Payment', claim: 'Claim', general: 'General' },
}) as PageOf<'MessagesPage'>;

const summary = (n: number, isUnread: boolean): MessageSummary => ({
  id: `m-${n}`,
  subject: `Message ${n}`,
  category: n % 2 === 0 ? 'payment' : 'renewal',
  receivedAt: `2026-11-${String(20 - n).padStart(2, '0')}T09:30:00Z`,
  isUnread,
});
const all = [summary(1, true), summary(2, false), summary(3, false)];

const opened: CustomerMessage = {
  id: 'm-1',
  subject: 'Message 1',
  category: 'renewal',
  receivedAt: '2026-11-19T09:30:00Z',
  body: '<p>Your renewal is <strong>ready</strong>.</p>',
  policy: { policyNumber: '717X1000017', productName: 'Home Insurance' },
  document: {
    id: 'ba1-dd',
    name: 'Direct Debit confirmation',
    date: '2026-09-01',
    kind: 'bill',
    reference: 'BA1',
  },
};

function show(path: string) {
  return renderWithRoot(
    <QueryClientProvider client={createQueryClient()}>
      <MessagesPage page={messagesPage} />
    </QueryClientProvider>,
    { path },
  );
}

/** The list as the service pages it; `read` ids are read. */
function serveList(read: Set<string>) {
  return fakeCall(listMessagesCall, ({ query }) => {
    const page = Number(query.get('page') ?? 1);
    const size = Number(query.get('pageSize') ?? 10);
    return {
      status: 200,
      body: {
        currentPage: page,
        lastPage: Math.max(1, Math.ceil(all.length / size)),
        pageSize: size,
        totalRecords: all.length,
        data: all
          .slice((page - 1) * size, page * size)
          .map((m) => ({ ...m, isUnread: m.isUnread && !read.has(m.id) })),
      },
    };
  });
}

describe('Your messages', () => {
  let signOut: () => void;
  beforeEach(() => {
    signOut = signedInAs('C1000017');
  });
  afterEach(() => {
    signOut();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('lists messages newest first, an unread one marked in words too, and shows more', async () => {
    fakeApi.use(serveList(new Set()));
    show('/account/messages');
    expect(await screen.findByRole('heading', { level: 1, name: 'Your messages' })).toBeInTheDocument();
    const unread = await screen.findByRole('link', { name: 'Message 1 (Unread)' });
    expect(unread).toHaveAttribute('href', '/account/messages?id=m-1');
    expect(unread.closest('li')).toHaveTextContent(
      /^Unread\s*Message 1 \(Unread\)Renewal Received 19 November 2026$/,
    );
    expect(screen.getByRole('link', { name: 'Message 2' })).toBeInTheDocument();
    expect(screen.getAllByRole('listitem')).toHaveLength(2);

    await userEvent.click(screen.getByRole('button', { name: 'Show more messages' }));
    const third = await screen.findByRole('link', { name: 'Message 3' });
    await vi.waitFor(() => expect(third.closest('li')).toHaveFocus());
    expect(screen.getByText('More messages shown: 1')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show more messages' })).not.toBeInTheDocument();
  });

  it('says when there are no messages, and when they cannot be shown', async () => {
    fakeApi.use(
      fakeCall(listMessagesCall, () => ({
        status: 200,
        body: { currentPage: 1, lastPage: 1, pageSize: 2, totalRecords: 0, data: [] },
      })),
    );
    const first = show('/account/messages');
    expect(await screen.findByRole('heading', { name: 'You have no messages' })).toBeInTheDocument();
    first.unmount();
    fakeApi.use(fakeCall(listMessagesCall, () => ({ status: 500 })));
    show('/account/messages');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Sorry, we cannot show your messages at the moment.',
    );
  });

  it('opens a message with its body and links; back in the list it is read', async () => {
    const read = new Set<string>();
    const counted: number[] = [];
    fakeApi.use(
      // Before the message's handler: its path pattern would take /message/unread/{customerId} too (the
      // service's router prefers the fixed segment; a customer id is never "unread").
      fakeCall(unreadMessageCountCall, () => {
        counted.push(1);
        return { status: 200, body: { unread: 0 } };
      }),
      serveList(read),
      fakeCall(getMessageCall, ({ params }) => {
        read.add(params.messageId);
        return { status: 200, body: opened };
      }),
    );
    const { router } = show('/account/messages');
    await userEvent.click(await screen.findByRole('link', { name: 'Message 1 (Unread)' }));
    expect(router.state.location.search).toBe('?id=m-1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Message 1' })).toBeInTheDocument();
    expect(document.title).toBe('Message 1 – Meridian Mutual');
    expect(screen.getByText('ready', { selector: 'strong' })).toBeInTheDocument();
    expect(screen.getByText('Received 19 November 2026')).toBeInTheDocument();
    const links = screen.getByRole('region', { name: 'About this message' });
    expect(
      within(links).getByRole('link', { name: 'See your Home Insurance policy, 717X1000017' }),
    ).toHaveAttribute('href', '/account/policies?id=717X1000017');
    expect(
      within(links).getByRole('button', { name: 'Download Direct Debit confirmation' }),
    ).toBeInTheDocument();
    // The menu's count is read again once the message has been opened.
    await vi.waitFor(() => expect(counted.length).toBeGreaterThan(0));

    await userEvent.click(screen.getByRole('link', { name: 'Back to your messages' }));
    expect(await screen.findByRole('link', { name: 'Message 1' })).toBeInTheDocument();
    expect(screen.queryByText('Unread')).not.toBeInTheDocument();
  });

  it('downloads the linked bill as the bills page does', async () => {
    fakeApi.use(
      fakeCall(unreadMessageCountCall, () => ({ status: 200, body: { unread: 0 } })),
      fakeCall(getMessageCall, () => ({ status: 200, body: opened })),
      fakeCall(getBillingDocumentPdfCall, ({ params }) =>
        params.docId === 'ba1-dd'
          ? {
              status: 200,
              raw: new Uint8Array([37, 80, 68, 70]),
              headers: {
                'Content-Type': 'application/pdf',
                'Content-Disposition': 'attachment; filename="Direct-Debit-confirmation.pdf"',
              },
            }
          : { status: 404 },
      ),
    );
    vi.stubGlobal(
      'URL',
      class extends URL {
        static override createObjectURL = () => 'blob:dd';
        static override revokeObjectURL = () => undefined;
      },
    );
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    show('/account/messages?id=m-1');
    await userEvent.click(await screen.findByRole('button', { name: 'Download Direct Debit confirmation' }));
    await vi.waitFor(() => expect(saved).toEqual(['Direct-Debit-confirmation.pdf']));
  });

  it("says so for a message that is not the customer's, or not a message id, without asking for the latter", async () => {
    const asked: string[] = [];
    fakeApi.use(
      fakeCall(getMessageCall, ({ params }) => {
        asked.push(params.messageId);
        return { status: 404 };
      }),
    );
    const first = show('/account/messages?id=someone-elses');
    expect(await screen.findByText('We cannot find that message in your account.')).toBeInTheDocument();
    expect(asked).toEqual(['someone-elses']);
    first.unmount();
    show('/account/messages?id=not%2Fan%20id');
    expect(await screen.findByText('We cannot find that message in your account.')).toBeInTheDocument();
    expect(asked).toEqual(['someone-elses']);
  });

  it('says when a message cannot be shown', async () => {
    fakeApi.use(fakeCall(getMessageCall, () => ({ status: 503 })));
    show('/account/messages?id=m-1');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Sorry, we cannot show this message at the moment.',
    );
    expect(screen.getByRole('link', { name: 'Back to your messages' })).toBeInTheDocument();
  });
});

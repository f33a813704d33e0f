import { emailMessage, links, list, paragraph, type OutboundMessage } from '../../platform/notifier';
import type { NoticeCategory } from './notices.repository';

/** The kind of message a document notice is (the queue's kind: its dead letters come back by it). */
export const DOCUMENT_NOTICE_KIND = 'document-notice';

/** One document the email lists: what it is and when it arrived; never an amount or a policy detail. */
export interface NoticeItem {
  category: NoticeCategory;
  kind: string;
  change: 'new' | 'updated';
  policyNumber: string | null;
  arrivedAt: Date;
}

/** The kind of document in plain words. */
const kindNames: Record<string, string> = {
  statement: 'Billing statement',
  payment_schedule: 'Payment schedule',
  direct_debit_confirmation: 'Direct Debit confirmation',
  annual_bill: 'Annual bill',
  schedule: 'Policy schedule',
  certificate: 'Insurance certificate',
  statement_of_fact: 'Statement of fact',
  policy_wording: 'Policy wording',
  insert: 'Policy document',
  quote_summary: 'Quote summary',
};
const categoryNames: Record<NoticeCategory, string> = {
  bill: 'Billing document',
  policy: 'Policy document',
  quote: 'Quote document',
  message: 'A message from us',
};

/** A customer message in plain words, by its category (never its subject: that may name a policy detail). */
const messageNames: Record<string, string> = {
  renewal: 'A message about your renewal',
  payment: 'A message about a payment',
  claim: 'A message about your claim',
  general: 'A message from us',
};

/** What a notice's line calls its item. */
const itemName = (item: NoticeItem) =>
  item.category === 'message'
    ? (messageNames[item.kind] ?? categoryNames.message)
    : (kindNames[item.kind] ?? categoryNames[item.category]);

const londonTime = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});

/** The page that lists a document, as a path of the portal (the link survives sign-in, as deep links do). */
function pageOf(item: NoticeItem): { path: string; name: string } {
  switch (item.category) {
    case 'bill':
      return { path: '/account/bills-and-payments', name: 'Bills and payments' };
    case 'policy':
      return item.policyNumber
        ? {
            path: `/account/policies/documents?${new URLSearchParams({ id: item.policyNumber }).toString()}`,
            name: 'Policy documents',
          }
        : { path: '/account/dashboard', name: 'Your dashboard' };
    case 'quote':
      return { path: '/account/dashboard', name: 'Your dashboard' };
    case 'message':
      return { path: '/account/messages', name: 'Your messages' };
  }
}

/**
 * The email telling a customer their documents are in their online account: a greeting by first name,
 * each document's kind, whether it is new or updated and when it arrived (UK time), and absolute links
 * to the pages that list them. A plain-text and an HTML part, from one description
 * (platform/notifier/email-template.ts).
 */
export function documentNoticeEmail(input: {
  to: string;
  firstName: string;
  customerId: string;
  publicUrl: string;
  items: readonly NoticeItem[];
  /** The notices' batch: the message's reference, given back if it cannot be delivered. */
  reference: string;
}): OutboundMessage {
  const { items, publicUrl } = input;
  const lines = items.map((item) => {
    const name = itemName(item);
    const change = item.change === 'updated' ? ' (updated)' : '';
    return `${name}${change}, added ${londonTime.format(item.arrivedAt)}`;
  });
  const pages = [...new Map(items.map((item) => [pageOf(item).path, pageOf(item)])).values()];
  const single = items.length === 1;
  const updatedOnly = items.every((item) => item.change === 'updated');
  const messages = items.filter((item) => item.category === 'message').length;
  const subject =
    messages === items.length
      ? single
        ? 'You have a new message in your online account'
        : 'You have new messages in your online account'
      : messages > 0
        ? 'You have new documents and messages in your online account'
        : single
          ? updatedOnly
            ? 'A document in your online account has been updated'
            : 'You have a new document in your online account'
          : 'You have new documents in your online account';
  return emailMessage(
    { to: input.to, kind: DOCUMENT_NOTICE_KIND, customerId: input.customerId, reference: input.reference },
    {
      subject,
      greeting: `Dear ${input.firstName},`,
      blocks: [
        paragraph(`${single ? 'This is' : 'These are'} now in your online account:`),
        list(lines),
        paragraph(`Sign in to read ${single ? 'it' : 'them'}:`),
        links(pages.map((page) => ({ label: page.name, href: `${publicUrl}${page.path}` }))),
      ],
      footer:
        'You can choose how we tell you about new documents in "Your preferences" in your online ' +
        'account.',
    },
  );
}

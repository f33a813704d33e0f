import type { OutboundMessage } from '../../platform/notifier';
import type { NoticeCategory } from './notices.repository';

/** The kind of text message a document notice is (the queue's kind: its dead letters come back by it). */
export const DOCUMENT_NOTICE_TEXT_KIND = 'document-notice-text';

/** The path of the page that lists items of a category (one page for the text: its one link). */
const pathOf = (category: NoticeCategory): string => {
  switch (category) {
    case 'bill':
      return '/account/bills-and-payments';
    case 'message':
      return '/account/messages';
    default:
      return '/account/dashboard';
  }
};

/**
 * The text telling a customer something new is in their online account (issue 40 point 4): how many
 * documents or messages and one link, with no name, amount or policy detail (a text can be read on a
 * locked phone's screen by anyone nearby).
 */
export function documentNoticeText(input: {
  to: string;
  customerId: string;
  publicUrl: string;
  items: readonly { category: NoticeCategory }[];
  reference: string;
}): OutboundMessage {
  const { items } = input;
  const messages = items.filter((item) => item.category === 'message').length;
  const documents = items.length - messages;
  const parts = [
    documents === 1 ? 'a new document' : documents > 1 ? `${documents} new documents` : null,
    messages === 1 ? 'a new message' : messages > 1 ? `${messages} new messages` : null,
  ].filter((part) => part !== null);
  const categories = new Set(items.map((item) => item.category));
  const [only] = categories;
  const path = categories.size === 1 && only !== undefined ? pathOf(only) : '/account/dashboard';
  return {
    channel: 'sms',
    to: input.to,
    kind: DOCUMENT_NOTICE_TEXT_KIND,
    customerId: input.customerId,
    reference: input.reference,
    text:
      `You have ${parts.join(' and ')} in your online account. ` +
      `Sign in to read ${items.length === 1 ? 'it' : 'them'}: ${input.publicUrl}${path}`,
  };
}

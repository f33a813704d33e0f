import { useNewDocumentCounts } from '../../session/new-documents';
import { useUnreadMessageCount } from '../../session/unread-messages';

/** The menu items that count their documents or messages (navigation.json's addresses). */
const BILLS_PAGE = '/account/bills-and-payments';
const POLICIES_PAGE = '/account/policies';
const MESSAGES_PAGE = '/account/messages';

/** How many documents are new, by the address of the menu item they belong to. */
export type NewCounts = Readonly<Record<string, number>>;

/**
 * The counts of documents not opened yet beside the menu's items (issue 40), read when a signed-in
 * customer opens a page; none while signed out or before the first read answers.
 */
export function useMenuNewCounts(customerId: string | undefined, pathname: string): NewCounts {
  const counts = useNewDocumentCounts(customerId, pathname);
  return counts ? { [BILLS_PAGE]: counts.bills, [POLICIES_PAGE]: counts.policyDocuments } : {};
}

/**
 * How many messages from the insurer are unread beside Your messages (issue 40 point 6), read when a
 * signed-in customer opens a page; none while signed out or before the first read answers.
 */
export function useMenuUnreadCounts(customerId: string | undefined, pathname: string): NewCounts {
  const unread = useUnreadMessageCount(customerId, pathname);
  return unread === null ? {} : { [MESSAGES_PAGE]: unread };
}

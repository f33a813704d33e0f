import type { BlockOf } from '@portal/contracts/content';
import type { BillingDocumentPage } from '@portal/contracts/document';
import { DocumentRow } from '../../../content/document-row';
import { LoadMoreList, loadMoreListState } from '../../../content/load-more-list';
import { RichText } from '../../../content/rich-text';
import { formatLongDate } from '../../../lib/format';
import { useMediaQuery } from '../../../lib/use-media-query';
import { useSiteSettings } from '../../../content/use-site-settings';
import { refreshNewDocumentCounts } from '../../../session/new-documents';
import { useAppQueryClient } from '../../../session/query-client';
import { useCurrentUser } from '../../../session/tokens';
import { downloadBillingDocument } from '../api/download-billing-document';
import { useBillingDocuments } from '../api/list-billing-documents';

/** Spec §9: the mobile breakpoint; page sizes below and above it come from content. */
const MOBILE_BREAKPOINT_PX = 768;

/** The loaded pages' documents by billing account, in the order the accounts first appear. */
export function byAccount(pages: readonly BillingDocumentPage[]): BillingDocumentPage['data'] {
  const accounts: BillingDocumentPage['data'] = [];
  for (const group of pages.flatMap((page) => page.data)) {
    const known = accounts.find((a) => a.accountNumber === group.accountNumber);
    if (known) known.documentSummaries = [...known.documentSummaries, ...group.documentSummaries];
    else accounts.push({ ...group, documentSummaries: [...group.documentSummaries] });
  }
  return accounts;
}

/**
 * Bills and payments (spec customer-data §2): billing documents per account, newest first, a page at a
 * time (page size for mobile or desktop from content) with load more; View PDF saves each under the name
 * the service gives, with the file error beside one that fails; apiError when the list cannot be read;
 * noDocsErrorHeading and noDocsError when there are none. Load more moves focus to the first new bill.
 */
function BillingDocumentsBlock({ block }: { block: BlockOf<'billingDocuments'> }) {
  const user = useCurrentUser();
  const settings = useSiteSettings();
  const queryClient = useAppQueryClient();
  const desktop = useMediaQuery(`(min-width: ${MOBILE_BREAKPOINT_PX}px)`);
  const pageSize = desktop ? block.pageSize.desktop : block.pageSize.mobile;
  const documents = useBillingDocuments(user?.customerId, pageSize);
  if (!user) return null;
  const accounts = byAccount(documents.data?.pages ?? []);
  const headingId = `${block.id}-heading`;

  return (
    <section className="content-block billing-documents" aria-labelledby={headingId}>
      <h2 id={headingId}>{block.heading}</h2>
      <RichText html={block.body} />
      <LoadMoreList
        state={loadMoreListState(documents, accounts.length)}
        texts={{
          loading: block.loadingText,
          apiError: block.messages.apiError,
          emptyHeading: block.messages.noDocsErrorHeading,
          empty: block.messages.noDocsError,
          loadMore: block.loadMoreText,
          added: block.loadMoreAddedText,
        }}
        itemSelector=".document-row"
        itemCount={accounts.reduce((sum, account) => sum + account.documentSummaries.length, 0)}
        hasMore={documents.hasNextPage}
        loadingMore={documents.isFetchingNextPage}
        loadMoreFailed={documents.isFetchNextPageError}
        onLoadMore={() => void documents.fetchNextPage()}
      >
        <ul className="document-packs">
          {accounts.map((account) => (
            <li key={account.accountNumber} className="document-pack">
              <h3 className="document-pack__title">
                {block.accountLabel} {account.accountNumber}
              </h3>
              <ul className="document-list">
                {account.documentSummaries.map((doc) => (
                  <DocumentRow
                    key={doc.id}
                    name={doc.name}
                    detail={formatLongDate(doc.date)}
                    buttonText={block.viewPdfText}
                    isNew={doc.isNew}
                    newText={settings.commonTexts['newDocument']}
                    fileError={block.messages.fileError}
                    onDownload={() =>
                      downloadBillingDocument(user.customerId, doc.id, doc.name, account.accountNumber).then(
                        // Opened: the lists read next say so (the New mark, issue 40).
                        () => {
                          void queryClient.invalidateQueries({ queryKey: ['document'], refetchType: 'none' });
                          refreshNewDocumentCounts(user.customerId);
                        },
                      )
                    }
                  />
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </LoadMoreList>
    </section>
  );
}

export default BillingDocumentsBlock;

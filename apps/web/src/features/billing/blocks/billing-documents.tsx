import type { BlockOf } from '@portal/contracts/content';
import type { BillingDocumentPage } from '@portal/contracts/document';
import { DocumentRow } from '../../../content/document-row';
import { RichText } from '../../../content/rich-text';
import { formatLongDate } from '../../../lib/format';
import { useMediaQuery } from '../../../lib/use-media-query';
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
 * noDocsErrorHeading and noDocsError when there are none.
 */
function BillingDocumentsBlock({ block }: { block: BlockOf<'billingDocuments'> }) {
  const user = useCurrentUser();
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
      {documents.isPending ? (
        <p className="block-loading" role="status">
          {block.loadingText}
        </p>
      ) : documents.isError && accounts.length === 0 ? (
        <div role="alert">
          <RichText html={block.messages.apiError} className="inset-text" />
        </div>
      ) : accounts.length === 0 ? (
        <div className="inset-text">
          <h3>{block.messages.noDocsErrorHeading}</h3>
          <RichText html={block.messages.noDocsError} />
        </div>
      ) : (
        <>
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
                      fileError={block.messages.fileError}
                      onDownload={() =>
                        downloadBillingDocument(user.customerId, doc.id, doc.name, account.accountNumber)
                      }
                    />
                  ))}
                </ul>
              </li>
            ))}
          </ul>
          {documents.isFetchNextPageError && (
            <div role="alert">
              <RichText html={block.messages.apiError} className="inset-text" />
            </div>
          )}
          {documents.hasNextPage && (
            <button
              type="button"
              className="button button--secondary"
              aria-busy={documents.isFetchingNextPage}
              disabled={documents.isFetchingNextPage}
              onClick={() => void documents.fetchNextPage()}
            >
              {block.loadMoreText}
            </button>
          )}
        </>
      )}
    </section>
  );
}

export default BillingDocumentsBlock;

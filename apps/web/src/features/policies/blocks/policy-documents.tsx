import type { BlockOf } from '@portal/contracts/content';
import type { DocumentSummary, PolicyDocumentPack } from '@portal/contracts/document';
import { DocumentRow } from '../../../content/document-row';
import { LoadMoreList, loadMoreListState } from '../../../content/load-more-list';
import { RichText } from '../../../content/rich-text';
import { formatLongDate } from '../../../lib/format';
import { useMediaQuery } from '../../../lib/use-media-query';
import { useSiteSettings } from '../../../content/use-site-settings';
import { refreshNewDocumentCounts } from '../../../session/new-documents';
import { useAppQueryClient } from '../../../session/query-client';
import { useCurrentUser } from '../../../session/tokens';
import { downloadInsert } from '../api/download-insert';
import { downloadPolicyDocument } from '../api/download-policy-document';
import { usePolicyDocuments } from '../api/list-policy-documents';
import { usePolicyFromUrl } from '../use-policy-from-url';

/** Spec §9: the mobile breakpoint; page sizes for below and above it come from content. */
const MOBILE_BREAKPOINT_PX = 768;

function Pack({
  pack,
  block,
  onDownload,
}: {
  pack: PolicyDocumentPack;
  block: BlockOf<'policyDocumentPacks'>;
  onDownload: (doc: DocumentSummary) => Promise<unknown>;
}) {
  const newText = useSiteSettings().commonTexts['newDocument'];
  return (
    <li className="document-pack">
      <h3 className="document-pack__title">{pack.title}</h3>
      <p className="document-pack__date">
        {block.createdLabel} {formatLongDate(pack.createDate)}
      </p>
      <ul className="document-list">
        {pack.documentSummaries.map((doc) => (
          <DocumentRow
            key={doc.id}
            name={doc.name}
            buttonText={block.downloadText}
            fileError={block.messages.fileError}
            onDownload={() => onDownload(doc)}
            isNew={doc.isNew}
            newText={newText}
          />
        ))}
      </ul>
    </li>
  );
}

/**
 * Policy document packs and inserts (spec customer-data §2): the policy's packs, newest first, a page at a
 * time (page size for mobile or desktop from content) with load more; each document downloads as a PDF
 * under the name the service gives, with the file error beside one that fails; apiError when the list
 * cannot be read; noDocsErrorHeading and noDocsError when there are none. Then the policy document
 * inserts (content's leaflets for the policy's product), downloaded the same way.
 */
export function PolicyDocumentsBlock({ block }: { block: BlockOf<'policyDocumentPacks'> }) {
  const found = usePolicyFromUrl();
  const user = useCurrentUser();
  const queryClient = useAppQueryClient();
  const desktop = useMediaQuery(`(min-width: ${MOBILE_BREAKPOINT_PX}px)`);
  const pageSize = desktop ? block.pageSize.desktop : block.pageSize.mobile;
  const policyNumber = found.state === 'ready' ? found.policyNumber : null;
  const documents = usePolicyDocuments(user?.customerId, policyNumber, pageSize);
  if (found.state === 'error') return <RichText html={block.messages.apiError} className="inset-text" />;
  if (found.state !== 'ready' || !user) return null;
  const { policy } = found;
  const inserts = block.inserts.filter((insert) => insert.productTypes.includes(policy.productType));
  const packs = documents.data?.pages.flatMap((page) => page.data) ?? [];
  // Opened: the lists read next say so (the New mark, issue 40).
  const onDownload = (doc: DocumentSummary) =>
    downloadPolicyDocument(
      user.customerId,
      policy.policyNumber,
      doc.id,
      `${doc.name} ${policy.policyNumber}`,
    ).then(() => {
      void queryClient.invalidateQueries({ queryKey: ['document'], refetchType: 'none' });
      refreshNewDocumentCounts(user.customerId);
    });
  const headingId = `${block.id}-heading`;

  return (
    <section className="content-block policy-documents" aria-labelledby={headingId}>
      <h2 id={headingId}>{block.heading ?? 'Your documents'}</h2>
      <RichText html={block.body} />
      <LoadMoreList
        state={loadMoreListState(documents, packs.length)}
        texts={{
          loading: 'Loading your documents…',
          apiError: block.messages.apiError,
          emptyHeading: block.messages.noDocsErrorHeading,
          empty: block.messages.noDocsError,
          loadMore: block.loadMoreText,
          added: block.loadMoreAddedText,
        }}
        itemSelector=".document-pack"
        itemCount={packs.length}
        hasMore={documents.hasNextPage}
        loadingMore={documents.isFetchingNextPage}
        loadMoreFailed={documents.isFetchNextPageError}
        onLoadMore={() => void documents.fetchNextPage()}
      >
        <ul className="document-packs">
          {packs.map((pack) => (
            <Pack
              key={`${pack.title}-${pack.createDate}`}
              pack={pack}
              block={block}
              onDownload={onDownload}
            />
          ))}
        </ul>
      </LoadMoreList>
      {/* After the policy's own documents have loaded, so the list does not jump below them. */}
      {!documents.isPending && inserts.length > 0 && (
        <>
          {block.insertsHeading && <h3 className="document-inserts__heading">{block.insertsHeading}</h3>}
          <ul className="document-list document-inserts">
            {inserts.map((insert) => (
              <DocumentRow
                key={insert.id}
                name={insert.title}
                buttonText={block.downloadText}
                fileError={block.messages.fileError}
                onDownload={() => downloadInsert(insert.url, insert.title, policy.policyNumber)}
              />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

export default PolicyDocumentsBlock;

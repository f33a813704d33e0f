import type { PageOf } from '@portal/contracts/content';
import type { CustomerMessage, MessageDocumentLink, MessagePage } from '@portal/contracts/message';
import type { InfiniteData } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import { Link, useLocation } from 'react-router';
import { DocumentRow } from '../../content/document-row';
import { fillPlaceholders } from '../../content/placeholders';
import { RichText } from '../../content/rich-text';
import { formatLongDate } from '../../lib/format';
import { useDocumentTitle } from '../../lib/use-document-title';
import { refreshNewDocumentCounts } from '../../session/new-documents';
import { useAppQueryClient } from '../../session/query-client';
import { useCurrentUser } from '../../session/tokens';
import { refreshUnreadMessageCount } from '../../session/unread-messages';
import { downloadBillingDocument } from './api/download-billing-document';
import { downloadPolicyDocument } from './api/download-policy-document';
import { downloadQuoteDocument } from './api/download-quote-document';
import { useMessage } from './api/get-message';
import { messageListKey } from './api/list-messages';
import { receivedDate } from './received-date';

type Page = PageOf<'MessagesPage'>;

/** A message id as the service takes one: anything else is no message of theirs (asked for nothing). */
const MESSAGE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The linked document's PDF, fetched as the page that lists it fetches it. */
function download(customerId: string, doc: MessageDocumentLink) {
  switch (doc.kind) {
    case 'bill':
      return downloadBillingDocument(customerId, doc.id, doc.name, doc.reference);
    case 'policy':
      return downloadPolicyDocument(customerId, doc.reference, doc.id, doc.name);
    case 'quote':
      return downloadQuoteDocument(customerId, doc.reference, doc.id, doc.name);
  }
}

/** The message's links: its policy's page, its document's PDF. */
function MessageLinks({
  page,
  message,
  customerId,
}: {
  page: Page;
  message: CustomerMessage;
  customerId: string;
}) {
  const headingId = useId();
  const texts = page.message;
  const queryClient = useAppQueryClient();
  const { policy, document } = message;
  if (!policy && !document) return null;
  return (
    <section className="message-page__links" aria-labelledby={headingId}>
      <h2 id={headingId}>{texts.linksHeading}</h2>
      {policy && (
        <p>
          <Link to={`/account/policies?${new URLSearchParams({ id: policy.policyNumber }).toString()}`}>
            {fillPlaceholders(texts.policyLinkText, {
              productName: policy.productName,
              policyNumber: policy.policyNumber,
            })}
          </Link>
        </p>
      )}
      {document && (
        <ul className="document-list">
          <DocumentRow
            name={document.name}
            detail={formatLongDate(document.date)}
            buttonText={texts.documentButtonText}
            fileError={texts.fileError}
            onDownload={() =>
              download(customerId, document).then(() => {
                // Opened: the documents' lists and the menu's counts say so (the New mark, issue 40).
                void queryClient.invalidateQueries({ queryKey: ['document'], refetchType: 'none' });
                refreshNewDocumentCounts(customerId);
              })
            }
          />
        </ul>
      )}
    </section>
  );
}

/**
 * One message (`?id=`): its subject as the page's heading, its category and date, its body (the content
 * service's rich text, shown by the content renderer) and its links. The service marks it read as it
 * answers, on every device: the list kept here and the menu's count are brought in line at once. An id
 * that is not one of the customer's messages (or has expired) says so; the list is a link away.
 */
export function MessageView({ page, messageId }: { page: Page; messageId: string }) {
  const user = useCurrentUser();
  const location = useLocation();
  const queryClient = useAppQueryClient();
  const texts = page.message;
  const valid = MESSAGE_ID.test(messageId);
  const query = useMessage(user?.customerId, valid ? messageId : '');
  const message = query.data;
  useDocumentTitle(message ? message.subject : undefined);

  useEffect(() => {
    if (!message || !user) return;
    const key = messageListKey(user.customerId);
    queryClient.setQueriesData<InfiniteData<MessagePage>>({ queryKey: key }, (data) =>
      data
        ? {
            ...data,
            pages: data.pages.map((p) => ({
              ...p,
              data: p.data.map((m) => (m.id === message.id ? { ...m, isUnread: false } : m)),
            })),
          }
        : data,
    );
    void queryClient.invalidateQueries({ queryKey: key, refetchType: 'none' });
    refreshUnreadMessageCount(user.customerId);
  }, [message, user, queryClient]);

  const back = (
    <p className="message-page__back">
      <Link to={location.pathname}>{texts.backText}</Link>
    </p>
  );
  if (valid && (query.isPending || !user)) {
    return (
      <article className="page message-page">
        <h1>{page.heading}</h1>
        <p className="block-loading" role="status">
          {texts.loadingText}
        </p>
      </article>
    );
  }
  if (query.isError) {
    return (
      <article className="page message-page">
        <h1>{page.heading}</h1>
        <div role="alert">
          <RichText html={texts.apiError} className="inset-text" />
        </div>
        {back}
      </article>
    );
  }
  if (!message || !user) {
    return (
      <article className="page message-page">
        <h1>{page.heading}</h1>
        <RichText html={texts.notFoundText} className="inset-text" />
      </article>
    );
  }
  return (
    <article className="page message-page">
      <h1>{message.subject}</h1>
      <p className="message-page__meta">
        <strong className="tag">{page.categories[message.category]}</strong>{' '}
        <span>
          {texts.receivedLabel} {receivedDate(message.receivedAt)}
        </span>
      </p>
      <RichText html={message.body} className="message-page__body" />
      <MessageLinks page={page} message={message} customerId={user.customerId} />
      {back}
    </article>
  );
}

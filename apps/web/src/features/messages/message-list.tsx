import type { PageOf } from '@portal/contracts/content';
import type { MessageSummary } from '@portal/contracts/message';
import { useId } from 'react';
import { Link, useLocation } from 'react-router';
import { LoadMoreList, loadMoreListState } from '../../content/load-more-list';
import { RichText } from '../../content/rich-text';
import { useMediaQuery } from '../../lib/use-media-query';
import { useCurrentUser } from '../../session/tokens';
import { useMessages } from './api/list-messages';
import { receivedDate } from './received-date';

/** Spec §9: the mobile breakpoint; page sizes below and above it come from content (as the bills). */
const MOBILE_BREAKPOINT_PX = 768;

type Page = PageOf<'MessagesPage'>;

/** One message in the list: its subject linking to it, marked while unread (seen and heard), its date. */
function MessageRow({ message, page, href }: { message: MessageSummary; page: Page; href: string }) {
  const texts = page.list;
  return (
    <li className={message.isUnread ? 'message-row message-row--unread' : 'message-row'}>
      {message.isUnread && (
        <strong className="tag tag--yellow message-row__unread">{texts.unreadText}</strong>
      )}
      <Link to={href} className="message-row__subject">
        {message.subject}
        {/* The space sits outside the hidden span so every name computation keeps the words apart. */}
        {message.isUnread && (
          <>
            {' '}
            <span className="visually-hidden">({texts.unreadText})</span>
          </>
        )}
      </Link>
      <span className="message-row__detail">
        <span className="message-row__category">{page.categories[message.category]}</span>{' '}
        <span>
          {texts.receivedLabel} {receivedDate(message.receivedAt)}
        </span>
      </span>
    </li>
  );
}

/**
 * "Your messages" (issue 40 point 6): the customer's messages from the insurer, newest first, a page at a
 * time with "Show more" (page size for mobile or desktop from content), each marked while unread and
 * linking to this page with `?id=`. Its loading, error and empty states are the other lists' (LoadMoreList).
 */
export function MessageList({ page }: { page: Page }) {
  const user = useCurrentUser();
  const location = useLocation();
  const headingId = useId();
  const desktop = useMediaQuery(`(min-width: ${MOBILE_BREAKPOINT_PX}px)`);
  const texts = page.list;
  const messages = useMessages(user?.customerId, desktop ? texts.pageSize.desktop : texts.pageSize.mobile);
  // Each once: a message arriving while the customer pages moves the others one on.
  const items = (messages.data?.pages.flatMap((p) => p.data) ?? []).filter(
    (message, i, all) => all.findIndex((m) => m.id === message.id) === i,
  );
  const link = (id: string) => `${location.pathname}?${new URLSearchParams({ id }).toString()}`;

  return (
    <article className="page messages-page">
      <h1 id={headingId}>{page.heading}</h1>
      <RichText html={page.intro} className="page__intro" />
      <section className="messages" aria-labelledby={headingId}>
        <LoadMoreList
          state={user ? loadMoreListState(messages, items.length) : 'loading'}
          texts={{
            loading: texts.loadingText,
            apiError: texts.apiError,
            emptyHeading: texts.emptyHeading,
            empty: texts.emptyText,
            loadMore: texts.loadMoreText,
            added: texts.loadMoreAddedText,
          }}
          itemSelector=".message-row"
          itemCount={items.length}
          hasMore={messages.hasNextPage}
          loadingMore={messages.isFetchingNextPage}
          loadMoreFailed={messages.isFetchNextPageError}
          onLoadMore={() => void messages.fetchNextPage()}
        >
          <ul className="message-list">
            {items.map((message) => (
              <MessageRow key={message.id} message={message} page={page} href={link(message.id)} />
            ))}
          </ul>
        </LoadMoreList>
      </section>
    </article>
  );
}

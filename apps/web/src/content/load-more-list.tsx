import { useEffect, useRef, type ReactNode } from 'react';
import { fillPlaceholders } from './placeholders';
import { RichText } from './rich-text';

interface LoadMoreListTexts {
  /** The load-more button ("Show more bills"). */
  loadMore: string;
  /** Announced once more items show: "{count} more bills shown". */
  added: string;
  /** Shown when the list, or its next page, cannot be read. */
  apiError: string;
  /** Shown while the first page loads. */
  loading?: string;
  /** Shown when there is nothing to list. */
  emptyHeading?: string;
  empty?: string;
}

type LoadMoreListState = 'loading' | 'failed' | 'empty' | 'ready';

/** A paged query's state as the list shows it: a failure with items already shown still lists them. */
export function loadMoreListState(
  query: { isPending: boolean; isError: boolean },
  itemCount: number,
): LoadMoreListState {
  if (query.isPending) return 'loading';
  if (itemCount === 0) return query.isError ? 'failed' : 'empty';
  return 'ready';
}

export interface LoadMoreListProps {
  /** loading (the first page), failed (nothing could be read), empty, or ready to list. */
  state: LoadMoreListState;
  texts: LoadMoreListTexts;
  /** Selects one item of the list (in document order): focus moves to the first one that load more adds. */
  itemSelector: string;
  /** How many items show now. */
  itemCount: number;
  hasMore: boolean;
  /** The next items are on their way: the button stays (and keeps focus) but does nothing more. */
  loadingMore?: boolean;
  /** The next items could not be read: the error shows under the list and focus stays on the button. */
  loadMoreFailed?: boolean;
  onLoadMore: () => void;
  children: ReactNode;
}

/**
 * A list shown a page at a time (bills, policy documents, the policies grid): its loading, error and empty
 * states, then the items with the next page's error and the load-more button. After load more, focus
 * moves to the first newly shown item (never to the page body when the button goes) and a polite live
 * region says how many were added (WCAG 2.4.3, 4.1.3).
 */
export function LoadMoreList({
  state,
  texts,
  itemSelector,
  itemCount,
  hasMore,
  loadingMore = false,
  loadMoreFailed = false,
  onLoadMore,
  children,
}: LoadMoreListProps) {
  const container = useRef<HTMLDivElement>(null);
  const region = useRef<HTMLParagraphElement>(null);
  // The items shown when load more was pressed, until the new ones arrive (or fail to). New items are
  // found by element, not by position: a bill may join its account's list above items shown before.
  const pending = useRef<{ count: number; shown: ReadonlySet<Element> } | null>(null);

  useEffect(() => {
    const before = pending.current;
    if (before === null) return;
    if (itemCount > before.count) {
      pending.current = null;
      const items = Array.from(container.current?.querySelectorAll<HTMLElement>(itemSelector) ?? []);
      const first = items.find((item) => !before.shown.has(item));
      if (first) {
        if (!first.hasAttribute('tabindex')) first.setAttribute('tabindex', '-1');
        first.focus();
      }
      if (region.current)
        region.current.textContent = fillPlaceholders(texts.added, { count: itemCount - before.count });
    } else if (loadMoreFailed) {
      pending.current = null;
    }
  }, [itemCount, loadMoreFailed, itemSelector, texts.added]);

  if (state === 'loading')
    return (
      <p className="block-loading" role="status">
        {texts.loading}
      </p>
    );
  if (state === 'failed')
    return (
      <div role="alert">
        <RichText html={texts.apiError} className="inset-text" />
      </div>
    );
  if (state === 'empty')
    return (
      <div className="inset-text">
        {texts.emptyHeading && <h3>{texts.emptyHeading}</h3>}
        <RichText html={texts.empty} />
      </div>
    );
  return (
    <div className="load-more-list" ref={container}>
      {children}
      {loadMoreFailed && (
        <div role="alert">
          <RichText html={texts.apiError} className="inset-text" />
        </div>
      )}
      {hasMore && (
        <button
          type="button"
          className="button button--secondary"
          // Not `disabled`: a disabled button loses focus to the page body while the next page loads.
          aria-disabled={loadingMore || undefined}
          aria-busy={loadingMore}
          onClick={() => {
            if (loadingMore) return;
            const shown = container.current?.querySelectorAll(itemSelector) ?? [];
            pending.current = { count: itemCount, shown: new Set(shown) };
            onLoadMore();
          }}
        >
          {texts.loadMore}
        </button>
      )}
      <p className="visually-hidden" aria-live="polite" ref={region} />
    </div>
  );
}

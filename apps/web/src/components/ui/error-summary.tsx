import { useEffect, useId, useRef, type MouseEvent, type ReactNode } from 'react';
import { cx } from './class-names';
import './ui.css';

export interface ErrorSummaryItem {
  /** Id of the field to link to (a group's first input); without it the message shows unlinked. */
  id?: string;
  message: ReactNode;
}

export interface ErrorSummaryProps {
  errors: readonly ErrorSummaryItem[];
  /** Content `errorSummaryHeading`; defaults to "There is a problem". */
  title?: ReactNode;
  /** Optional text under the heading (e.g. a page-level message that belongs to no single field). */
  description?: ReactNode;
  /**
   * The summary takes focus when it appears; change this (e.g. a submit counter) to take focus again
   * after a later failed submit while it is still showing.
   */
  focusKey?: unknown;
  className?: string;
}

/** Focuses the field and scrolls its label or legend into view, as GOV.UK Frontend does. */
function focusField(targetId: string): boolean {
  const target = document.getElementById(targetId);
  if (!target) return false;
  const legend = target.closest('fieldset')?.querySelector('legend');
  const label =
    target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement ? target.labels?.[0] : null;
  const heading = legend ?? label ?? target;
  // jsdom has no scrollIntoView; real browsers always do.
  if (typeof heading.scrollIntoView === 'function') heading.scrollIntoView();
  target.focus({ preventScroll: true });
  return true;
}

/**
 * GOV.UK error summary: "There is a problem" and a link to each invalid field. It is an alert and takes
 * focus when shown so keyboard and screen reader users land on it. Links move focus themselves rather
 * than changing the URL hash, which the router would treat as a navigation.
 */
export function ErrorSummary({
  errors,
  title = 'There is a problem',
  description,
  focusKey,
  className,
}: ErrorSummaryProps) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const visible = errors.length > 0;

  useEffect(() => {
    if (visible) ref.current?.focus();
  }, [visible, focusKey]);

  if (!visible) return null;

  const onLinkClick = (event: MouseEvent<HTMLAnchorElement>, id: string) => {
    if (focusField(id)) event.preventDefault();
  };

  return (
    <div
      ref={ref}
      className={cx('ui-error-summary', className)}
      role="alert"
      aria-labelledby={titleId}
      tabIndex={-1}
    >
      <h2 className="ui-error-summary__title" id={titleId}>
        {title}
      </h2>
      <div className="ui-error-summary__body">
        {description ? <div className="ui-error-summary__description">{description}</div> : null}
        <ul className="ui-error-summary__list">
          {errors.map((error, index) => {
            const targetId = error.id;
            return (
              <li key={targetId ?? `message-${index}`}>
                {targetId ? (
                  <a href={`#${targetId}`} onClick={(event) => onLinkClick(event, targetId)}>
                    {error.message}
                  </a>
                ) : (
                  error.message
                )}
              </li>
            );
          })}
        </ul>
      </div>
    </div>
  );
}

import type { ReactNode } from 'react';
import { cx } from './class-names';
import './ui.css';

export interface DetailsProps {
  /** The toggle text, e.g. "Help with your policy number". */
  summary: ReactNode;
  children: ReactNode;
  /** Open on first render; afterwards the customer controls it. */
  defaultOpen?: boolean;
  id?: string;
  className?: string;
  onToggle?: (open: boolean) => void;
}

/**
 * GOV.UK details: help text behind a native disclosure. Content "tooltip" texts render this way because
 * hover tooltips cannot be reached by keyboard or touch, vanish on zoom and are missed by screen readers.
 */
export function Details({ summary, children, defaultOpen, id, className, onToggle }: DetailsProps) {
  return (
    <details
      id={id}
      className={cx('ui-details', className)}
      open={defaultOpen}
      onToggle={onToggle ? (event) => onToggle(event.currentTarget.open) : undefined}
    >
      <summary className="ui-details__summary">
        <span className="ui-details__summary-text">{summary}</span>
      </summary>
      <div className="ui-details__text">{children}</div>
    </details>
  );
}

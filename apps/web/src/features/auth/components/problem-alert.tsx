import { useEffect, useId, useRef } from 'react';
import { RichText } from '../../../content/rich-text';

export interface ProblemAlertProps {
  /** Content `errorSummaryHeading`. */
  title: string;
  /** The message (content rich text). */
  html: string;
  /** Change it to take focus again when the same message comes back after another attempt. */
  focusKey?: unknown;
}

/**
 * A problem with the whole form rather than one field (wrong password, wrong code, service down), in the
 * GOV.UK error summary's place and style: an alert that takes focus so keyboard and screen reader users
 * land on it.
 */
export function ProblemAlert({ title, html, focusKey }: ProblemAlertProps) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useEffect(() => {
    ref.current?.focus();
  }, [html, focusKey]);
  return (
    <div ref={ref} className="ui-error-summary" role="alert" aria-labelledby={titleId} tabIndex={-1}>
      <h2 className="ui-error-summary__title" id={titleId}>
        {title}
      </h2>
      <RichText html={html} className="ui-error-summary__body" />
    </div>
  );
}

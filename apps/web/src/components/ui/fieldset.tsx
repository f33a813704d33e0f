import type { ReactNode } from 'react';
import { cx, ids } from './class-names';
import { VisuallyHidden } from './visually-hidden';
import './ui.css';

export interface FieldsetProps {
  /** Base for the hint and error ids. */
  id: string;
  legend: ReactNode;
  /** Wrap the legend in an h1 when the group is the page's only question. */
  legendAsHeading?: boolean;
  hint?: ReactNode;
  error?: ReactNode;
  describedBy?: string;
  className?: string;
  children: ReactNode;
}

/** GOV.UK fieldset with legend, hint and inline error, shared by the choice groups and the code input. */
export function Fieldset({
  id,
  legend,
  legendAsHeading,
  hint,
  error,
  describedBy,
  className,
  children,
}: FieldsetProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={cx('ui-form-group', error ? 'ui-form-group--error' : null, className)}>
      <fieldset className="ui-fieldset" aria-describedby={ids(hintId, errorId, describedBy)}>
        <legend className={cx('ui-fieldset__legend', legendAsHeading && 'ui-fieldset__legend--heading')}>
          {legendAsHeading ? <h1 className="ui-fieldset__heading">{legend}</h1> : legend}
        </legend>
        {hint ? (
          <div id={hintId} className="ui-hint">
            {hint}
          </div>
        ) : null}
        {error ? (
          // A block, not a paragraph: an error may be rich text from content (its own paragraphs).
          <div id={errorId} className="ui-error-message">
            <VisuallyHidden>Error:</VisuallyHidden> {error}
          </div>
        ) : null}
        {children}
      </fieldset>
    </div>
  );
}

import type { ChangeEvent, InputHTMLAttributes, ReactNode, Ref } from 'react';
import { cx, ids } from './class-names';
import { Details } from './details';
import { VisuallyHidden } from './visually-hidden';
import './ui.css';

/** Spec default label when content gives none. */
const DEFAULT_LABEL = 'Label';

export interface TextFieldProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'value' | 'defaultValue' | 'onChange' | 'children'
> {
  /** The input's id; an error summary links to it. */
  id: string;
  /** Content `label`; defaults to "Label". */
  label?: ReactNode;
  /** Wrap the label in an h1 when the field is the page's only question (GOV.UK pattern). */
  labelAsHeading?: boolean;
  /** Content `subLabel`: hint text under the label, read with the field. */
  hint?: ReactNode;
  /** Content `tooltip`: help behind a details disclosure (pass sanitised rich text as a node). */
  tooltip?: ReactNode;
  /** The details toggle text; defaults to "Help with {label}" for a text label. */
  tooltipSummary?: ReactNode;
  /** The inline error; shown, with a hidden "Error:" prefix, whenever it is set. */
  error?: ReactNode;
  value: string;
  onChange: (value: string, event: ChangeEvent<HTMLInputElement>) => void;
  /** Extra ids for aria-describedby (e.g. a password requirements list). */
  describedBy?: string;
  /** Width in characters for fixed-length answers (GOV.UK fixed-width inputs); full width otherwise. */
  width?: 2 | 3 | 4 | 5 | 10 | 20 | 30;
  /** Rendered beside the input, inside its wrapper (e.g. a Show/Hide button). */
  suffix?: ReactNode;
  className?: string;
  ref?: Ref<HTMLInputElement>;
}

/**
 * GOV.UK text input: label, hint, optional help, inline error linked by aria-describedby, aria-invalid.
 * `required` is exposed as aria-required rather than the attribute so browsers do not show their own
 * validation bubbles (forms use noValidate and our messages).
 */
export function TextField({
  id,
  label,
  labelAsHeading,
  hint,
  tooltip,
  tooltipSummary,
  error,
  value,
  onChange,
  describedBy,
  width,
  suffix,
  className,
  required,
  type = 'text',
  ref,
  ...inputProps
}: TextFieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const labelText = label || DEFAULT_LABEL;
  const labelElement = (
    <label className={cx('ui-label', labelAsHeading && 'ui-label--heading')} htmlFor={id}>
      {labelText}
    </label>
  );

  return (
    <div className={cx('ui-form-group', error ? 'ui-form-group--error' : null, className)}>
      {labelAsHeading ? <h1 className="ui-label-wrapper">{labelElement}</h1> : labelElement}
      {hint ? (
        <div id={hintId} className="ui-hint">
          {hint}
        </div>
      ) : null}
      {tooltip ? (
        <Details
          summary={
            tooltipSummary ?? (typeof labelText === 'string' ? `Help with ${labelText}` : 'More information')
          }
        >
          {tooltip}
        </Details>
      ) : null}
      {error ? (
        <div id={errorId} className="ui-error-message">
          <VisuallyHidden>Error:</VisuallyHidden> {error}
        </div>
      ) : null}
      <div className="ui-input-wrapper">
        <input
          ref={ref}
          id={id}
          type={type}
          className={cx(
            'ui-input',
            width ? `ui-input--width-${width}` : null,
            error ? 'ui-input--error' : null,
          )}
          value={value}
          onChange={(event) => onChange(event.target.value, event)}
          aria-describedby={ids(hintId, errorId, describedBy)}
          aria-invalid={error ? true : undefined}
          aria-required={required ? true : undefined}
          {...inputProps}
        />
        {suffix}
      </div>
    </div>
  );
}

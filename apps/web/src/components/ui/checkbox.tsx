import type { ChangeEvent, ReactNode, Ref } from 'react';
import { cx, ids } from './class-names';
import { VisuallyHidden } from './visually-hidden';
import './ui.css';

export interface CheckboxProps {
  id: string;
  name?: string;
  /** Content `label`; defaults to "Label". */
  label?: ReactNode;
  hint?: ReactNode;
  checked: boolean;
  onChange: (checked: boolean, event: ChangeEvent<HTMLInputElement>) => void;
  value?: string;
  disabled?: boolean;
  /** Shown above the checkbox when set (most checkbox questions show none; spec section 5). */
  error?: ReactNode;
  describedBy?: string;
  required?: boolean;
  className?: string;
  ref?: Ref<HTMLInputElement>;
}

/** A single GOV.UK checkbox with a large (44 px) target: the whole label is clickable. */
export function Checkbox({
  id,
  name,
  label,
  hint,
  checked,
  onChange,
  value,
  disabled,
  error,
  describedBy,
  required,
  className,
  ref,
}: CheckboxProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={cx('ui-form-group', error ? 'ui-form-group--error' : null, className)}>
      {error ? (
        <div id={errorId} className="ui-error-message">
          <VisuallyHidden>Error:</VisuallyHidden> {error}
        </div>
      ) : null}
      <div className="ui-choice">
        <input
          ref={ref}
          className="ui-choice__input"
          type="checkbox"
          id={id}
          name={name}
          value={value}
          checked={checked}
          disabled={disabled}
          onChange={(event) => onChange(event.target.checked, event)}
          aria-describedby={ids(hintId, errorId, describedBy)}
          aria-invalid={error ? true : undefined}
          aria-required={required ? true : undefined}
        />
        <label className="ui-choice__label" htmlFor={id}>
          {label || 'Label'}
        </label>
        {hint ? (
          <div id={hintId} className="ui-hint ui-choice__hint">
            {hint}
          </div>
        ) : null}
      </div>
    </div>
  );
}

import type { ButtonHTMLAttributes, MouseEvent, Ref } from 'react';
import { cx } from './class-names';
import { Spinner } from './spinner';
import { VisuallyHidden } from './visually-hidden';
import './ui.css';

export interface ButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'disabled'> {
  variant?: 'primary' | 'secondary' | 'warning';
  /**
   * Not available yet (e.g. the form is not valid). Rendered as aria-disabled, not the disabled
   * attribute, so the button stays in the tab order and a screen reader user can find it and hear why;
   * activating it does nothing except call onDisabledClick.
   */
  disabled?: boolean;
  /** Shows a spinner, sets aria-busy and blocks further clicks until the submission settles. */
  submitting?: boolean;
  /** Announced politely while submitting. Only buttons given `submitting` render the announcer. */
  submittingText?: string;
  /** Called when a disabled button is activated, e.g. to reveal what is missing. */
  onDisabledClick?: (event: MouseEvent<HTMLButtonElement>) => void;
  ref?: Ref<HTMLButtonElement>;
}

/** GOV.UK button. `type` defaults to "button"; pass type="submit" for a form's submit button. */
export function Button({
  variant = 'primary',
  disabled = false,
  submitting,
  submittingText = 'Please wait',
  onDisabledClick,
  onClick,
  className,
  type = 'button',
  children,
  ref,
  ...rest
}: ButtonProps) {
  const blocked = disabled || submitting === true;

  const handleClick = (event: MouseEvent<HTMLButtonElement>) => {
    if (blocked) {
      // Also stops implicit submission (Enter in a field clicks the form's submit button).
      event.preventDefault();
      if (disabled && !submitting) onDisabledClick?.(event);
      return;
    }
    onClick?.(event);
  };

  const button = (
    <button
      ref={ref}
      type={type}
      className={cx('ui-button', variant !== 'primary' && `ui-button--${variant}`, className)}
      aria-disabled={blocked ? true : undefined}
      aria-busy={submitting ? true : undefined}
      onClick={handleClick}
      {...rest}
    >
      {submitting ? <Spinner size="small" className="ui-button__spinner" /> : null}
      <span className="ui-button__text">{children}</span>
    </button>
  );

  if (submitting === undefined) return button;
  return (
    <>
      {button}
      <VisuallyHidden role="status">{submitting ? submittingText : ''}</VisuallyHidden>
    </>
  );
}

import type { ReactNode } from 'react';
import { cx } from './class-names';
import { VisuallyHidden } from './visually-hidden';
import './ui.css';

export interface FormErrorProps {
  /** Give the form's submit button `aria-describedby` this id while the message shows. */
  id: string;
  children: ReactNode;
  className?: string;
}

/**
 * The page-level form error (spec: shown while the first input has a value but the form is not yet valid),
 * placed just above the submit button it explains. It is deliberately a static message, not a live region
 * or an alert: it comes and goes with the customer's keystrokes, and announcing it each time would talk
 * over their typing. Screen reader users hear it as the description of the (unavailable) submit button;
 * trying to submit moves focus to the error summary, which lists what to fix.
 */
export function FormError({ id, children, className }: FormErrorProps) {
  return (
    <div id={id} className={cx('ui-form-error', className)}>
      <VisuallyHidden>Error:</VisuallyHidden> {children}
    </div>
  );
}

import { cx } from './class-names';
import { VisuallyHidden } from './visually-hidden';
import './ui.css';

export interface SpinnerProps {
  /** Announced politely when given; without it the spinner is decorative (e.g. inside a busy button). */
  label?: string;
  size?: 'small' | 'medium' | 'large';
  className?: string;
}

export function Spinner({ label, size = 'medium', className }: SpinnerProps) {
  const wheel = <span className={cx('ui-spinner', `ui-spinner--${size}`, className)} aria-hidden="true" />;
  if (!label) return wheel;
  return (
    <span className="ui-spinner-wrapper" role="status">
      {wheel}
      <VisuallyHidden>{label}</VisuallyHidden>
    </span>
  );
}

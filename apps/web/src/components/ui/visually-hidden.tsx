import type { HTMLAttributes } from 'react';
import { cx } from './class-names';
import './ui.css';

export type VisuallyHiddenProps = HTMLAttributes<HTMLSpanElement>;

/** Text for screen readers only (still read, still copied; never display:none). */
export function VisuallyHidden({ className, ...rest }: VisuallyHiddenProps) {
  return <span className={cx('ui-visually-hidden', className)} {...rest} />;
}

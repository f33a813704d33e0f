import type { HTMLAttributes } from 'react';
import { cx } from './class-names';
import './ui.css';

export type InsetTextProps = HTMLAttributes<HTMLDivElement>;

/** GOV.UK inset text: a quotation, example or extra information set apart from the text around it. */
export function InsetText({ className, ...rest }: InsetTextProps) {
  return <div className={cx('ui-inset-text', className)} {...rest} />;
}

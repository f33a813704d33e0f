import { useEffect, useId, useRef, type ReactNode } from 'react';
import { cx } from './class-names';
import './ui.css';

export interface NotificationBannerProps {
  /** important: something the customer should know; success: the outcome of what they just did. */
  variant?: 'important' | 'success';
  /** Defaults to "Important" or "Success". */
  title?: ReactNode;
  children: ReactNode;
  /**
   * Move focus to the banner when it appears so screen readers read it. Defaults to true for success
   * (it reports the result of an action), false for important.
   */
  focusOnMount?: boolean;
  className?: string;
}

/** GOV.UK notification banner. A success banner is an alert and takes focus; an important one is a labelled region. */
export function NotificationBanner({
  variant = 'important',
  title,
  children,
  focusOnMount = variant === 'success',
  className,
}: NotificationBannerProps) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const success = variant === 'success';

  useEffect(() => {
    if (focusOnMount) ref.current?.focus();
  }, [focusOnMount]);

  return (
    <div
      ref={ref}
      className={cx('ui-notification-banner', success && 'ui-notification-banner--success', className)}
      role={success ? 'alert' : 'region'}
      aria-labelledby={titleId}
      tabIndex={focusOnMount ? -1 : undefined}
    >
      <div className="ui-notification-banner__header">
        <h2 className="ui-notification-banner__title" id={titleId}>
          {title ?? (success ? 'Success' : 'Important')}
        </h2>
      </div>
      <div className="ui-notification-banner__content">{children}</div>
    </div>
  );
}

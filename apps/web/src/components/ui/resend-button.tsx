import { useEffect, useId, useState, type ReactNode } from 'react';
import { Button } from './button';
import { cx } from './class-names';
import { useCountdown } from './use-countdown';
import { VisuallyHidden } from './visually-hidden';
import './ui.css';

/** Spec: the resend button is unavailable for 30 seconds after the page loads and after each click. */
const RESEND_DELAY_MS = 30_000;

export interface ResendButtonProps {
  /** Sends a new code. Failures are the caller's to handle (the challenge page signs the user out). */
  onResend: () => void;
  delayMs?: number;
  /** The button text (content `resendText`). */
  children?: ReactNode;
  /** The waiting sentence: a function of the seconds left, or a content text with `{seconds}`. */
  countdownText?: string | ((secondsLeft: number) => string);
  /** Announced when the button becomes available again. */
  availableText?: string;
  /** Further blocked by the caller (e.g. while verifying a code). */
  disabled?: boolean;
  className?: string;
}

const defaultCountdownText = (s: number) => `You can request a new code in ${s} second${s === 1 ? '' : 's'}`;

/**
 * "Resend code" with its wait. The visible countdown changes every second but is not a live region; the
 * button is described by it, so focusing the button reads the current value. A polite status speaks
 * only when the wait starts and when the button is available again. The button stays focusable while
 * waiting (aria-disabled), so focus is not lost after a click.
 */
export function ResendButton({
  onResend,
  delayMs = RESEND_DELAY_MS,
  children = 'Resend code',
  countdownText = defaultCountdownText,
  availableText = 'You can now request a new code',
  disabled = false,
  className,
}: ResendButtonProps) {
  const countdownId = useId();
  const [announcement, setAnnouncement] = useState('');
  const describe = (seconds: number) =>
    typeof countdownText === 'function'
      ? countdownText(seconds)
      : countdownText.replaceAll('{seconds}', String(seconds));
  const { secondsLeft, running, restart } = useCountdown(delayMs, {
    onComplete: () => setAnnouncement(availableText),
  });
  const totalSeconds = Math.ceil(delayMs / 1000);
  const startText = describe(totalSeconds);

  useEffect(() => {
    // A live region filled in the same render that creates it is not read; fill it just after mount.
    const timer = setTimeout(() => setAnnouncement(startText), 100);
    return () => clearTimeout(timer);
    // Only the wait that starts with the page; later waits are announced by the click handler.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onClick = () => {
    restart();
    setAnnouncement(startText);
    onResend();
  };

  return (
    <div className={cx('ui-resend', className)}>
      <Button
        variant="secondary"
        disabled={running || disabled}
        aria-describedby={running ? countdownId : undefined}
        onClick={onClick}
      >
        {children}
      </Button>
      <p id={countdownId} className="ui-hint ui-resend__countdown">
        {running ? describe(secondsLeft) : null}
      </p>
      <VisuallyHidden role="status">{announcement}</VisuallyHidden>
    </div>
  );
}

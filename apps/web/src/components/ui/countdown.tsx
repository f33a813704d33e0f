import { useCountdown } from './use-countdown';
import { cx } from './class-names';
import './ui.css';

export interface CountdownProps {
  /** Seconds to count down from (the inactivity modal's default is 60). Remount (key) to start again. */
  seconds?: number;
  /** Called once when it reaches zero. */
  onComplete?: () => void;
  /** The sentence shown and announced for a number of seconds left; defaults to "1 minute", "45 seconds". */
  text?: (secondsLeft: number) => string;
  /** Whether to announce at this many seconds left; defaults to the start, every 15 s, then 10 and 5. */
  announceAt?: (secondsLeft: number, total: number) => boolean;
  /** Give the dialog aria-describedby this id so the sentence is read when the dialog opens. */
  id?: string;
  className?: string;
}

export function formatSeconds(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  const secondsText = `${rest} second${rest === 1 ? '' : 's'}`;
  if (minutes === 0) return secondsText;
  const minutesText = `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return rest === 0 ? minutesText : `${minutesText} and ${secondsText}`;
}

export function defaultAnnounceAt(secondsLeft: number, total: number): boolean {
  return (
    secondsLeft === total ||
    (secondsLeft > 0 && (secondsLeft % 15 === 0 || secondsLeft === 10 || secondsLeft === 5))
  );
}

/**
 * A visible countdown updated every second, with a hidden polite live region that speaks only at the
 * announce points. Speaking every second would drown out everything else a screen reader says.
 */
export function Countdown({
  seconds = 60,
  onComplete,
  text = formatSeconds,
  announceAt = defaultAnnounceAt,
  id,
  className,
}: CountdownProps) {
  const { secondsLeft } = useCountdown(seconds * 1000, { onComplete });
  // The last announce point reached so far: derived, so nothing is stored or re-announced on re-render.
  let announced = seconds;
  for (let s = seconds; s >= secondsLeft; s -= 1) {
    if (announceAt(s, seconds)) announced = s;
  }

  return (
    <span id={id} className={cx('ui-countdown', className)}>
      <span className="ui-countdown__visible" aria-hidden="true">
        {text(secondsLeft)}
      </span>
      <span className="ui-visually-hidden" aria-live="polite" aria-atomic="true">
        {text(announced)}
      </span>
    </span>
  );
}

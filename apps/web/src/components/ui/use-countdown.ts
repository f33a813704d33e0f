import { useCallback, useEffect, useRef, useState } from 'react';

export interface CountdownOptions {
  /** Start on mount (default true); otherwise call restart(). */
  autoStart?: boolean;
  onComplete?: () => void;
  /** How often the remaining time is re-read; a quarter second keeps the shown second accurate. */
  tickMs?: number;
}

export interface CountdownState {
  /** Whole seconds left, rounded up; 0 when not running. */
  secondsLeft: number;
  running: boolean;
  restart: () => void;
  stop: () => void;
}

/**
 * Counts down to a deadline rather than counting ticks, so a throttled background tab (timers slowed to
 * once a minute) still ends on time. Tests drive it with fake timers, which also move Date.now.
 */
export function useCountdown(
  durationMs: number,
  { autoStart = true, onComplete, tickMs = 250 }: CountdownOptions = {},
): CountdownState {
  const [deadline, setDeadline] = useState<number | null>(() => (autoStart ? Date.now() + durationMs : null));
  const [now, setNow] = useState(() => Date.now());
  const onCompleteRef = useRef(onComplete);
  useEffect(() => {
    onCompleteRef.current = onComplete;
  });

  useEffect(() => {
    if (deadline === null) return;
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= deadline) {
        setDeadline(null);
        onCompleteRef.current?.();
      }
    }, tickMs);
    return () => clearInterval(timer);
  }, [deadline, tickMs]);

  const restart = useCallback(() => {
    const current = Date.now();
    setNow(current);
    setDeadline(current + durationMs);
  }, [durationMs]);
  const stop = useCallback(() => setDeadline(null), []);

  const secondsLeft = deadline === null ? 0 : Math.max(0, Math.ceil((deadline - now) / 1000));
  return { secondsLeft, running: deadline !== null, restart, stop };
}

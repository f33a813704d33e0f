import type { Timers } from './wall-clock-timers';

/**
 * What counts as the customer doing something: a key, the mouse or a touch, the wheel, focus moving, the
 * page shown or hidden. Listened for on the document in the capture phase (nothing the page does can hide
 * one), passively (no listener here ever delays a scroll or a touch).
 */
const ACTIVITY_EVENTS = [
  'keydown',
  'mousedown',
  'mousemove',
  'wheel',
  'touchstart',
  'touchmove',
  'focus',
  'visibilitychange',
] as const;

interface IdleDetectorOptions {
  /** Idle this long (ms), the warning is due. */
  warnAfterMs: number;
  /** And this long (ms) after that, the customer is signed out. */
  countdownMs: number;
  /** The warning is due, with this long (ms) of the countdown left (less than all of it after a sleep). */
  onWarn(remainingMs: number): void;
  /** The countdown has ended: idle for `warnAfterMs + countdownMs`. */
  onIdle(): void;
  /** The customer is back after the warning (`activate`). */
  onActive(): void;
  /** The customer did something here, told at most once every `shareEveryMs`, never while warned. */
  onAction(): void;
  /** The timers deadlines are kept with (wall-clock-timers.ts: they keep to the wall clock in a sleep). */
  timers: Timers;
  /** Activity moves the deadline's timer at most once in this long (ms). */
  eventsThrottleMs: number;
  shareEveryMs: number;
  /**
   * Mouse movement counts only this long (ms) after the start: content shifting under a resting pointer
   * as the page loads is reported as mouse movement, which is not the customer coming back.
   */
  ignoreMouseMoveMs: number;
}

export interface IdleDetector {
  /** The customer is active (elsewhere, or "Stay signed in"): the idle time starts again, any warning closes. */
  activate(): void;
  /** Stops listening and timing, for good. */
  stop(): void;
}

/**
 * The inactivity warning's idle detector (decision 021, amended by 033: the portal's own, in place of
 * react-idle-timer). One idle period: from the last activity, `warnAfterMs` to the warning (`onWarn`),
 * then `countdownMs` to the end (`onIdle`). Every deadline is on the wall clock (Date.now() against the
 * last activity) and kept by `timers`, so a computer that slept past it is warned, or signed out, within a
 * second of waking, with what is left of the countdown. While the warning shows, activity does not end it:
 * only `activate` (the customer's answer, or activity in another tab) does. Activity that comes after the
 * warning was due but before it was shown (the first key after waking) shows it rather than hiding it.
 */
export function createIdleDetector(options: IdleDetectorOptions): IdleDetector {
  const { timers, warnAfterMs, countdownMs } = options;
  const endAfterMs = warnAfterMs + countdownMs;
  let lastActive = Date.now();
  let warned = false;
  let stopped = false;
  let pending: number | undefined;
  /** When the pending deadline's timer was last set (a burst of activity moves it at most this often). */
  let scheduledAt = 0;
  let lastSharedAt = -Infinity;
  let mouseMoveCounts = false;
  const mouseMoveTimer = setTimeout(() => (mouseMoveCounts = true), options.ignoreMouseMoveMs);

  const schedule = (delay: number) => {
    if (pending !== undefined) timers.clearTimeout(pending);
    scheduledAt = Date.now();
    pending = timers.setTimeout(check, delay);
  };

  /** Where the idle period stands by the wall clock: warns, ends, or waits for the next deadline. */
  function check() {
    pending = undefined;
    if (stopped) return;
    const idleFor = Date.now() - lastActive;
    if (idleFor >= endAfterMs) {
      stop();
      options.onIdle();
      return;
    }
    if (idleFor < warnAfterMs) {
      // Activity since this was set moved the deadline on.
      schedule(warnAfterMs - idleFor);
      return;
    }
    schedule(endAfterMs - idleFor);
    if (!warned) {
      warned = true;
      options.onWarn(endAfterMs - idleFor);
    }
  }

  const onActivity = (event: Event) => {
    if (stopped || warned) return;
    if (event.type === 'mousemove' && !mouseMoveCounts) return;
    const now = Date.now();
    // Past the warning's deadline already (the page was asleep, its timers not yet run): this is the
    // customer coming back to a warning that was due, not activity within the idle time.
    if (now - lastActive >= warnAfterMs) {
      check();
      return;
    }
    // Every event moves the idle period on (a clock read); the timer is set again at most once a
    // throttle period, and between, `check` finds the later activity and waits on. Set from the event,
    // not from a timer's callback, so that a hidden tab's browser does not take it for a chain of timers
    // to throttle.
    lastActive = now;
    if (now - scheduledAt >= options.eventsThrottleMs) schedule(warnAfterMs);
    if (now - lastSharedAt >= options.shareEveryMs) {
      lastSharedAt = now;
      options.onAction();
    }
  };

  for (const type of ACTIVITY_EVENTS)
    document.addEventListener(type, onActivity, { capture: true, passive: true });

  function stop() {
    stopped = true;
    clearTimeout(mouseMoveTimer);
    if (pending !== undefined) timers.clearTimeout(pending);
    pending = undefined;
    for (const type of ACTIVITY_EVENTS) document.removeEventListener(type, onActivity, { capture: true });
  }

  schedule(warnAfterMs);

  return {
    activate() {
      if (stopped) return;
      lastActive = Date.now();
      schedule(warnAfterMs);
      if (warned) {
        warned = false;
        options.onActive();
      }
    },
    stop,
  };
}

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createIdleDetector, type IdleDetector } from './idle-detector';
import { createWallClockTimers } from './wall-clock-timers';

const WARN_AFTER_MS = 60_000;
const COUNTDOWN_MS = 20_000;

let detector: IdleDetector | undefined;
/** What the detector said, each with when (ms after it started, by the clock the test moves). */
let said: string[];

beforeEach(() => {
  vi.useFakeTimers();
  said = [];
});
afterEach(() => {
  detector?.stop();
  detector = undefined;
  vi.useRealTimers();
});

function start() {
  const from = Date.now();
  const say = (text: string) => said.push(`${Date.now() - from} ${text}`);
  detector = createIdleDetector({
    warnAfterMs: WARN_AFTER_MS,
    countdownMs: COUNTDOWN_MS,
    timers: createWallClockTimers(),
    eventsThrottleMs: 200,
    shareEveryMs: 1000,
    ignoreMouseMoveMs: 200,
    onWarn: (remainingMs) => say(`warn ${remainingMs}`),
    onIdle: () => say('idle'),
    onActive: () => say('active'),
    onAction: () => say('shared'),
  });
  return detector;
}

/** Moves time on a step at a time, as a page lives it. */
function advance(ms: number, step = 100) {
  for (let left = ms; left > 0; left -= step) vi.advanceTimersByTime(Math.min(step, left));
}

const press = () => document.dispatchEvent(new KeyboardEvent('keydown', { key: 'a' }));
const moveMouse = () => document.dispatchEvent(new MouseEvent('mousemove'));
/** The computer sleeps: the wall clock moves on, timers (which count only waking time) do not. */
const sleep = (ms: number) => vi.setSystemTime(Date.now() + ms);

describe('createIdleDetector', () => {
  it('warns at the idle time with the whole countdown, and ends when the countdown does', () => {
    start();
    advance(WARN_AFTER_MS + COUNTDOWN_MS + 5_000);
    expect(said).toEqual([`${WARN_AFTER_MS} warn ${COUNTDOWN_MS}`, `${WARN_AFTER_MS + COUNTDOWN_MS} idle`]);
    // Ended for good: nothing listens or waits.
    press();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('counts the idle time from the last activity, to the millisecond, however the events come', () => {
    start();
    advance(10_000);
    // A burst: keys every 50 ms for a second (the timer is moved at most every 200 ms), the last at 10,950.
    for (let i = 0; i < 20; i += 1) {
      press();
      vi.advanceTimersByTime(50);
    }
    advance(WARN_AFTER_MS, 10);
    expect(said.filter((s) => s.includes('warn'))).toEqual([
      `${10_950 + WARN_AFTER_MS} warn ${COUNTDOWN_MS}`,
    ]);
  });

  it('takes no activity while the warning shows: only activate() ends it, and starts the idle time again', () => {
    const idle = start();
    advance(WARN_AFTER_MS);
    press();
    moveMouse();
    advance(5_000);
    idle.activate();
    advance(WARN_AFTER_MS);
    expect(said).toEqual([
      `${WARN_AFTER_MS} warn ${COUNTDOWN_MS}`,
      `${WARN_AFTER_MS + 5_000} active`,
      `${2 * WARN_AFTER_MS + 5_000} warn ${COUNTDOWN_MS}`,
    ]);
  });

  it('tells the other tabs at most once a second, and never while the warning shows', () => {
    start();
    advance(1_000);
    for (let i = 0; i < 25; i += 1) {
      press();
      advance(100);
    }
    // 2.5 s of keys, a key every 100 ms (the last at 3,400): shared at 0, 1 and 2 seconds into it.
    expect(said).toEqual(['1000 shared', '2000 shared', '3000 shared']);
    advance(WARN_AFTER_MS);
    press();
    expect(said.slice(3)).toEqual([`${3_400 + WARN_AFTER_MS} warn ${COUNTDOWN_MS}`]);
  });

  it('takes mouse movement only once the page has settled', () => {
    start();
    // Content moving under a resting pointer as the page loads.
    moveMouse();
    advance(300);
    expect(said).toEqual([]);
    moveMouse();
    expect(said).toEqual(['300 shared']);
    advance(WARN_AFTER_MS);
    expect(said).toEqual(['300 shared', `${300 + WARN_AFTER_MS} warn ${COUNTDOWN_MS}`]);
  });

  it('warns within a second of waking when the warning fell due in a sleep, with what is left', () => {
    start();
    advance(30_000);
    sleep(38_000);
    advance(1_000);
    // Found by the wall clock's check, within a second: 68 to 69 s idle, 11 to 12 s of the countdown left.
    expect(said).toEqual([expect.stringMatching(/^6(8|9)\d{3} warn 1[12]\d{3}$/)]);
  });

  it('shows the warning that fell due in a sleep when the first thing on waking is a key, not before', () => {
    start();
    advance(30_000);
    sleep(40_000);
    press();
    expect(said).toEqual(['70000 warn 10000']);
  });

  it('ends on waking when the whole countdown passed in a sleep, without a warning', () => {
    start();
    advance(10_000);
    sleep(2 * 60 * 60_000);
    advance(1_000);
    expect(said).toEqual([expect.stringMatching(/^72\d{5} idle$/)]);
  });

  it('stops listening and timing', () => {
    const idle = start();
    idle.stop();
    press();
    advance(WARN_AFTER_MS + COUNTDOWN_MS);
    idle.activate();
    expect(said).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});

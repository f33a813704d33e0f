import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createWallClockTimers } from './wall-clock-timers';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** The computer sleeps: the wall clock moves on, timers (which count only waking time) do not. */
const sleep = (ms: number) => vi.setSystemTime(Date.now() + ms);

describe('createWallClockTimers', () => {
  it('fires on time when nothing sleeps, once', () => {
    const timers = createWallClockTimers();
    const fired = vi.fn();
    timers.setTimeout(fired, 5_000);
    vi.advanceTimersByTime(4_999);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fired).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(60_000);
    expect(fired).toHaveBeenCalledTimes(1);
  });

  it('fires within a second of waking when its deadline passed during sleep', () => {
    const timers = createWallClockTimers();
    const fired = vi.fn();
    timers.setTimeout(fired, 15 * 60_000);
    vi.advanceTimersByTime(2 * 60_000);
    sleep(60 * 60_000);
    vi.advanceTimersByTime(1_000);
    expect(fired).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(15 * 60_000);
    expect(fired).toHaveBeenCalledTimes(1);
  });

  it('fires at once when the page is shown again after its deadline', () => {
    const timers = createWallClockTimers();
    const fired = vi.fn();
    timers.setTimeout(fired, 60_000);
    sleep(61_000);
    document.dispatchEvent(new Event('visibilitychange'));
    expect(fired).toHaveBeenCalledTimes(1);
  });

  it('never fires a cleared timeout, and stops checking when none is pending', () => {
    const timers = createWallClockTimers();
    const fired = vi.fn();
    const id = timers.setTimeout(fired, 10_000);
    timers.clearTimeout(id);
    sleep(60_000);
    vi.advanceTimersByTime(20_000);
    expect(fired).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });
});

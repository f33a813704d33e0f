import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Countdown, defaultAnnounceAt, formatSeconds } from './countdown';

const advance = (ms: number) =>
  act(() => {
    vi.advanceTimersByTime(ms);
  });

describe('formatSeconds', () => {
  it('reads naturally', () => {
    expect(formatSeconds(60)).toBe('1 minute');
    expect(formatSeconds(59)).toBe('59 seconds');
    expect(formatSeconds(1)).toBe('1 second');
    expect(formatSeconds(90)).toBe('1 minute and 30 seconds');
    expect(formatSeconds(121)).toBe('2 minutes and 1 second');
  });
});

describe('defaultAnnounceAt', () => {
  it('announces at the start, every 15 seconds, then at 10 and 5', () => {
    const points = Array.from({ length: 61 }, (_, i) => 60 - i).filter((s) => defaultAnnounceAt(s, 60));
    expect(points).toEqual([60, 45, 30, 15, 10, 5]);
  });
});

describe('Countdown', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const text = (s: number) => `You will be signed out in ${s} seconds`;
  const visible = () => document.querySelector('.ui-countdown__visible');
  const live = () => document.querySelector('[aria-live="polite"]');

  it('updates the visible count every second', () => {
    render(<Countdown seconds={60} text={text} />);
    expect(visible()).toHaveTextContent('You will be signed out in 60 seconds');
    advance(1000);
    expect(visible()).toHaveTextContent('You will be signed out in 59 seconds');
    advance(20_000);
    expect(visible()).toHaveTextContent('You will be signed out in 39 seconds');
  });

  it('speaks only at the announce points', () => {
    render(<Countdown seconds={60} text={text} id="count" />);
    expect(live()).toHaveTextContent('in 60 seconds');
    advance(14_000);
    expect(live()).toHaveTextContent('in 60 seconds');
    advance(1000);
    expect(live()).toHaveTextContent('in 45 seconds');
    advance(29_000);
    expect(live()).toHaveTextContent('in 30 seconds');
    advance(6000);
    expect(live()).toHaveTextContent('in 10 seconds');
    // Screen readers read the hidden region; the visible copy, changing every second, is hidden from them.
    expect(visible()).toHaveAttribute('aria-hidden', 'true');
    expect(visible()).toHaveTextContent('in 10 seconds');
  });

  it('calls onComplete once at zero', () => {
    const onComplete = vi.fn();
    render(<Countdown seconds={5} onComplete={onComplete} />);
    advance(4999);
    expect(onComplete).not.toHaveBeenCalled();
    advance(1);
    expect(onComplete).toHaveBeenCalledTimes(1);
    advance(10_000);
    expect(onComplete).toHaveBeenCalledTimes(1);
  });
});

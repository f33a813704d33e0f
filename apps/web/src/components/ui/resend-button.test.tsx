import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResendButton } from './resend-button';

/*
 * Fake timers drive the 30-second wait. Clicks use fireEvent: user-event's async wrapper (from Testing
 * Library) waits on a timer that only Jest's fake timers know to advance, so it would hang here.
 */
const advance = (ms: number) =>
  act(() => {
    vi.advanceTimersByTime(ms);
  });

describe('ResendButton', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const setup = () => {
    const onResend = vi.fn();
    render(<ResendButton onResend={onResend} />);
    const button = screen.getByRole('button', { name: 'Resend code' });
    return { onResend, button };
  };

  it('is unavailable for 30 seconds after it appears, with a visible countdown', () => {
    const { onResend, button } = setup();
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByText('You can request a new code in 30 seconds')).toBeVisible();
    expect(button).toHaveAccessibleDescription('You can request a new code in 30 seconds');

    advance(3000);
    expect(screen.getByText('You can request a new code in 27 seconds')).toBeInTheDocument();
    fireEvent.click(button);
    expect(onResend).not.toHaveBeenCalled();

    advance(26_999);
    expect(screen.getByText('You can request a new code in 1 second')).toBeInTheDocument();
    expect(button).toHaveAttribute('aria-disabled', 'true');

    advance(1);
    expect(button).not.toHaveAttribute('aria-disabled');
    expect(button).not.toHaveAccessibleDescription();
    expect(screen.queryByText(/You can request a new code in/)).not.toBeInTheDocument();
  });

  it('stays focusable while waiting so a screen reader user can find it and hear the wait', () => {
    const { button } = setup();
    expect(button).not.toBeDisabled();
    button.focus();
    expect(button).toHaveFocus();
  });

  it('announces only when the wait starts and when it ends, not every second', () => {
    setup();
    const status = screen.getByRole('status');
    advance(200);
    expect(status).toHaveTextContent('You can request a new code in 30 seconds');
    advance(10_000);
    expect(status).toHaveTextContent('You can request a new code in 30 seconds');
    advance(20_000);
    expect(status).toHaveTextContent('You can now request a new code');
  });

  it('sends a code when clicked and is unavailable for another 30 seconds', () => {
    const { onResend, button } = setup();
    advance(30_000);
    button.focus();
    fireEvent.click(button);
    expect(onResend).toHaveBeenCalledTimes(1);
    expect(button).toHaveFocus();
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveAccessibleDescription('You can request a new code in 30 seconds');
    expect(screen.getByRole('status')).toHaveTextContent('You can request a new code in 30 seconds');

    advance(15_000);
    fireEvent.click(button);
    expect(onResend).toHaveBeenCalledTimes(1);
    expect(screen.getByText('You can request a new code in 15 seconds')).toBeInTheDocument();

    advance(15_000);
    fireEvent.click(button);
    expect(onResend).toHaveBeenCalledTimes(2);
  });

  it('stays unavailable while the caller blocks it', () => {
    const onResend = vi.fn();
    render(<ResendButton onResend={onResend} disabled />);
    advance(30_000);
    fireEvent.click(screen.getByRole('button'));
    expect(onResend).not.toHaveBeenCalled();
  });

  it('uses content texts with a {seconds} placeholder', () => {
    render(
      <ResendButton onResend={() => undefined} countdownText="Wait {seconds}s before asking again">
        Send me a new code
      </ResendButton>,
    );
    expect(screen.getByRole('button', { name: 'Send me a new code' })).toBeInTheDocument();
    advance(5000);
    expect(screen.getByText('Wait 25s before asking again')).toBeInTheDocument();
  });
});

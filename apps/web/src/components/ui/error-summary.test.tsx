import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ErrorSummary, type ErrorSummaryItem } from './error-summary';
import { TextField } from './text-field';
import { RadioGroup } from './radio-group';

function Harness() {
  const [errors, setErrors] = useState<ErrorSummaryItem[]>([]);
  const [attempts, setAttempts] = useState(0);
  return (
    <>
      <ErrorSummary errors={errors} focusKey={attempts} />
      <TextField id="email" label="Email address" value="" onChange={() => undefined} />
      <RadioGroup
        id="contact"
        name="contact"
        legend="How should we contact you?"
        options={[
          { value: 'sms', label: 'Text message' },
          { value: 'call', label: 'Phone call' },
        ]}
        value={null}
        onChange={() => undefined}
      />
      <button
        type="button"
        onClick={() => {
          setErrors([
            { id: 'email', message: 'Enter your email address' },
            { id: 'contact', message: 'Choose how we contact you' },
            { message: 'We could not check your details' },
          ]);
          setAttempts((n) => n + 1);
        }}
      >
        Continue
      </button>
    </>
  );
}

describe('ErrorSummary', () => {
  it('renders nothing without errors', () => {
    render(<ErrorSummary errors={[]} />);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('appears as an alert headed "There is a problem" and takes focus', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const summary = screen.getByRole('alert', { name: 'There is a problem' });
    expect(summary).toHaveFocus();
    expect(screen.getByRole('link', { name: 'Enter your email address' })).toHaveAttribute('href', '#email');
    expect(screen.getByRole('link', { name: 'Choose how we contact you' })).toHaveAttribute(
      'href',
      '#contact',
    );
    expect(summary).toHaveTextContent('We could not check your details');
    expect(screen.queryByRole('link', { name: 'We could not check your details' })).not.toBeInTheDocument();
  });

  it('moves focus to the field when a link is followed, without changing the URL', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const before = window.location.href;
    await user.click(screen.getByRole('link', { name: 'Enter your email address' }));
    expect(screen.getByRole('textbox', { name: 'Email address' })).toHaveFocus();
    await user.click(screen.getByRole('link', { name: 'Choose how we contact you' }));
    expect(screen.getByRole('radio', { name: 'Text message' })).toHaveFocus();
    expect(window.location.href).toBe(before);
  });

  it('takes focus again on a later failed attempt', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByRole('alert')).toHaveFocus();
  });

  it('uses the content heading', () => {
    render(<ErrorSummary title="Check your answers" errors={[{ id: 'x', message: 'Wrong' }]} />);
    expect(screen.getByRole('alert', { name: 'Check your answers' })).toBeInTheDocument();
  });
});

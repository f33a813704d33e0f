import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Button } from './button';

describe('Button', () => {
  it('is a plain button by default and runs onClick', async () => {
    const user = userEvent.setup();
    const onClick = vi.fn();
    render(<Button onClick={onClick}>Continue</Button>);
    const button = screen.getByRole('button', { name: 'Continue' });
    expect(button).toHaveAttribute('type', 'button');
    await user.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('renders the secondary and warning styles', () => {
    render(
      <>
        <Button variant="secondary">Back</Button>
        <Button variant="warning">Delete</Button>
      </>,
    );
    expect(screen.getByRole('button', { name: 'Back' })).toHaveClass('ui-button--secondary');
    expect(screen.getByRole('button', { name: 'Delete' })).toHaveClass('ui-button--warning');
  });

  it('when disabled stays focusable, does nothing and reports the attempt', async () => {
    const user = userEvent.setup();
    const onClick = vi.fn();
    const onDisabledClick = vi.fn();
    render(
      <Button disabled onClick={onClick} onDisabledClick={onDisabledClick}>
        Sign in
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Sign in' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    await user.tab();
    expect(button).toHaveFocus();
    await user.keyboard('{Enter}');
    await user.click(button);
    expect(onClick).not.toHaveBeenCalled();
    expect(onDisabledClick).toHaveBeenCalledTimes(2);
  });

  it('when disabled blocks the form submission, including Enter in a field', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn((event: { preventDefault: () => void }) => event.preventDefault());
    render(
      <form onSubmit={onSubmit} noValidate>
        <label htmlFor="e">Email</label>
        <input id="e" />
        <Button type="submit" disabled>
          Sign in
        </Button>
      </form>,
    );
    await user.type(screen.getByLabelText('Email'), 'x{Enter}');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('shows a spinner, is busy and announces while submitting', async () => {
    const user = userEvent.setup();
    const onClick = vi.fn();
    const { rerender } = render(
      <Button submitting={false} onClick={onClick}>
        Save
      </Button>,
    );
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
    rerender(
      <Button submitting onClick={onClick} submittingText="Saving your preferences">
        Save
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Save' });
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button.querySelector('.ui-spinner')).toHaveAttribute('aria-hidden', 'true');
    expect(screen.getByRole('status')).toHaveTextContent('Saving your preferences');
    await user.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });
});

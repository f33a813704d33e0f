import { useState } from 'react';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { PasswordField } from './password-field';

function Harness({ inForm = false }: { inForm?: boolean }) {
  const [value, setValue] = useState('');
  const field = (
    <PasswordField
      id="password"
      label="Password"
      autoComplete="current-password"
      value={value}
      onChange={setValue}
    />
  );
  return inForm ? (
    <form aria-label="Sign in" noValidate onSubmit={(event) => event.preventDefault()}>
      {field}
    </form>
  ) : (
    field
  );
}

const input = () => screen.getByLabelText('Password') as HTMLInputElement;

describe('PasswordField', () => {
  it('starts hidden with a Show button named for what it does', () => {
    render(<Harness />);
    expect(input()).toHaveAttribute('type', 'password');
    expect(input()).toHaveAttribute('autocomplete', 'current-password');
    expect(input()).toHaveAttribute('maxlength', '128');
    const toggle = screen.getByRole('button', { name: 'Show password' });
    expect(toggle).toHaveTextContent('Show');
    expect(toggle).toHaveAttribute('aria-controls', 'password');
  });

  it('reveals and hides the password and announces each change', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.type(input(), 'Secret 1');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(input()).toHaveAttribute('type', 'text');
    expect(input()).toHaveValue('Secret 1');
    const toggle = screen.getByRole('button', { name: 'Hide password' });
    expect(toggle).toHaveTextContent('Hide');
    expect(screen.getByText('Your password is visible')).toBeInTheDocument();

    await user.click(toggle);
    expect(input()).toHaveAttribute('type', 'password');
    expect(screen.getByText('Your password is hidden')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Show password' })).toHaveFocus();
  });

  it('hides the password again when its form is submitted', async () => {
    const user = userEvent.setup();
    render(<Harness inForm />);
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(input()).toHaveAttribute('type', 'text');
    fireEvent.submit(screen.getByRole('form', { name: 'Sign in' }));
    expect(input()).toHaveAttribute('type', 'password');
  });

  it('does not switch off autocorrect-style changes to what is typed', () => {
    render(<Harness />);
    expect(input()).toHaveAttribute('autocapitalize', 'none');
    expect(input()).toHaveAttribute('spellcheck', 'false');
  });
});

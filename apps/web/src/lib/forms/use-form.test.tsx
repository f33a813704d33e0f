import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Button } from '../../components/ui/button';
import { DateOfBirthField } from '../../components/ui/date-of-birth-field';
import { ErrorSummary } from '../../components/ui/error-summary';
import { TextField } from '../../components/ui/text-field';
import type { FieldDefinition } from '../validation/field';
import { toIsoDate } from '../validation/date-of-birth';
import { useForm } from './use-form';

const fields: FieldDefinition[] = [
  {
    id: 'email',
    name: 'email',
    type: 'email',
    label: 'Email address',
    required: true,
    errorMessage: 'Enter an email address in the correct format, like name@example.com',
    requiredMessage: 'Enter your email address',
  },
  {
    id: 'dob',
    name: 'dob',
    type: 'dob',
    label: 'Date of birth',
    required: true,
    errorMessage: 'Enter a real date of birth in the past',
  },
];

function RegistrationForm({
  onSubmit,
}: {
  onSubmit: (body: { email: string; dateOfBirth: string }) => void;
}) {
  const form = useForm({ fields, context: { today: new Date(2026, 0, 10) } });
  const email = String(form.values.email);
  const dob = String(form.values.dob);
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!form.canSubmit) return;
        onSubmit({ email: email.trim(), dateOfBirth: toIsoDate(dob) ?? '' });
      }}
    >
      <ErrorSummary errors={form.summaryErrors} focusKey={form.submitCount} />
      {form.showFormError ? <p data-testid="form-error">Check the details you entered</p> : null}
      <TextField
        id="email"
        label="Email address"
        type="email"
        value={email}
        onChange={(v) => form.setValue('email', v)}
        onBlur={() => form.blur('email')}
        error={form.errorFor('email')}
      />
      <DateOfBirthField
        id="dob"
        label="Date of birth"
        value={dob}
        onChange={(v) => form.setValue('dob', v)}
        onBlur={() => form.blur('dob')}
        error={form.errorFor('dob')}
      />
      <Button type="submit" disabled={!form.canSubmit} onDisabledClick={() => form.revealErrors()}>
        Continue
      </Button>
    </form>
  );
}

describe('useForm with the building blocks', () => {
  it('does not show an error while typing, shows it on leaving the field, and clears it once valid', async () => {
    const user = userEvent.setup();
    render(<RegistrationForm onSubmit={() => undefined} />);
    const email = screen.getByRole('textbox', { name: 'Email address' });
    await user.type(email, 'jane@');
    expect(email).not.toHaveAttribute('aria-invalid');
    await user.tab();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription(
      'Error: Enter an email address in the correct format, like name@example.com',
    );
    await user.type(email, 'example.com');
    expect(email).not.toHaveAttribute('aria-invalid');
  });

  it('does not complain about a field the customer only tabbed through', async () => {
    const user = userEvent.setup();
    render(<RegistrationForm onSubmit={() => undefined} />);
    await user.tab();
    await user.tab();
    expect(screen.getByRole('textbox', { name: 'Email address' })).not.toHaveAttribute('aria-invalid');
  });

  it('enables Continue only when every field is valid and then submits the ISO date', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<RegistrationForm onSubmit={onSubmit} />);
    const button = screen.getByRole('button', { name: 'Continue' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    await user.type(screen.getByRole('textbox', { name: 'Email address' }), ' jane@example.com');
    expect(button).toHaveAttribute('aria-disabled', 'true');
    await user.type(screen.getByRole('textbox', { name: 'Date of birth' }), '25111978');
    expect(button).not.toHaveAttribute('aria-disabled');
    await user.click(button);
    expect(onSubmit).toHaveBeenCalledWith({ email: 'jane@example.com', dateOfBirth: '1978-11-25' });
  });

  it('shows the page-level error once the first input has a value but the form is invalid', async () => {
    const user = userEvent.setup();
    render(<RegistrationForm onSubmit={() => undefined} />);
    expect(screen.queryByTestId('form-error')).not.toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Email address' }), 'j');
    expect(screen.getByTestId('form-error')).toBeInTheDocument();
  });

  it('activating Continue too early reveals every problem in a focused error summary', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<RegistrationForm onSubmit={onSubmit} />);
    await user.type(screen.getByRole('textbox', { name: 'Date of birth' }), '31022000');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByRole('alert', { name: 'There is a problem' })).toHaveFocus();
    expect(screen.getByRole('link', { name: 'Enter your email address' })).toHaveAttribute('href', '#email');
    expect(screen.getByRole('link', { name: 'Enter a real date of birth in the past' })).toHaveAttribute(
      'href',
      '#dob',
    );
    expect(screen.getByRole('textbox', { name: 'Date of birth' })).toHaveAttribute('aria-invalid', 'true');

    await user.click(screen.getByRole('link', { name: 'Enter your email address' }));
    expect(screen.getByRole('textbox', { name: 'Email address' })).toHaveFocus();
    await user.type(screen.getByRole('textbox', { name: 'Email address' }), 'jane@example.com');
    expect(screen.queryByRole('link', { name: 'Enter your email address' })).not.toBeInTheDocument();
  });
});

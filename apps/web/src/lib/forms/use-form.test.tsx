import { render, screen, waitFor } from '@testing-library/react';
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

  describe('a mouse click on Continue straight from the last field', () => {
    async function filledUpToAnInvalidLastField() {
      const user = userEvent.setup();
      const onSubmit = vi.fn();
      render(<RegistrationForm onSubmit={onSubmit} />);
      await user.type(screen.getByRole('textbox', { name: 'Email address' }), 'jane@example.com');
      const dob = screen.getByRole('textbox', { name: 'Date of birth' });
      await user.type(dob, '0302');
      return { user, onSubmit, dob, button: screen.getByRole('button', { name: 'Continue' }) };
    }

    it('keeps the page still while the button is held, then the click reveals every problem', async () => {
      const { user, onSubmit, dob, button } = await filledUpToAnInvalidLastField();
      await user.pointer({ keys: '[MouseLeft>]', target: button });
      // Focus has left the field, but its error has not pushed the button away from under the pointer.
      expect(dob).not.toHaveFocus();
      expect(dob).not.toHaveAttribute('aria-invalid');
      expect(screen.queryByText('Enter a real date of birth in the past')).not.toBeInTheDocument();

      await user.pointer({ keys: '[/MouseLeft]', target: button });
      expect(screen.getByRole('alert', { name: 'There is a problem' })).toHaveFocus();
      expect(
        screen.getByRole('link', { name: 'Enter a real date of birth in the past' }),
      ).toBeInTheDocument();
      expect(dob).toHaveAttribute('aria-invalid', 'true');
      expect(onSubmit).not.toHaveBeenCalled();
    });

    it('submits when the last value typed makes the form valid', async () => {
      const { user, onSubmit, dob, button } = await filledUpToAnInvalidLastField();
      await user.type(dob, '2000');
      await user.click(button);
      expect(onSubmit).toHaveBeenCalledWith({ email: 'jane@example.com', dateOfBirth: '2000-02-03' });
    });

    it('still shows the field error when the press is released somewhere else', async () => {
      const { user, dob, button } = await filledUpToAnInvalidLastField();
      await user.pointer({ keys: '[MouseLeft>]', target: button });
      await user.pointer({ keys: '[/MouseLeft]', target: document.body });
      await waitFor(() => expect(dob).toHaveAttribute('aria-invalid', 'true'));
      expect(screen.queryByRole('alert', { name: 'There is a problem' })).not.toBeInTheDocument();
    });

    it('shows the error at once when the customer tabs away', async () => {
      const { user, dob } = await filledUpToAnInvalidLastField();
      await user.tab();
      expect(dob).toHaveAttribute('aria-invalid', 'true');
    });
  });
});

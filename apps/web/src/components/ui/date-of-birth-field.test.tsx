import { useState } from 'react';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DateOfBirthField } from './date-of-birth-field';

function Harness() {
  const [value, setValue] = useState('');
  return <DateOfBirthField id="dob" label="Date of birth" value={value} onChange={setValue} />;
}

describe('DateOfBirthField', () => {
  it('is a numeric text input with the bday autocomplete hint and a format hint', () => {
    render(<Harness />);
    const input = screen.getByRole('textbox', { name: 'Date of birth' });
    expect(input).toHaveAttribute('inputmode', 'numeric');
    expect(input).toHaveAttribute('autocomplete', 'bday');
    expect(input).toHaveAccessibleDescription('For example, 27/03/1985');
  });

  it('inserts the slashes while digits are typed', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const input = screen.getByRole('textbox', { name: 'Date of birth' });
    await user.type(input, '25');
    expect(input).toHaveValue('25/');
    await user.type(input, '111978');
    expect(input).toHaveValue('25/11/1978');
    await user.type(input, '9');
    expect(input).toHaveValue('25/11/1978');
  });

  it('ignores letters and accepts typed slashes without doubling them', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const input = screen.getByRole('textbox', { name: 'Date of birth' });
    await user.type(input, '2a5/1b1/1978');
    expect(input).toHaveValue('25/11/1978');
  });

  it('removes an inserted slash with one Backspace', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const input = screen.getByRole('textbox', { name: 'Date of birth' });
    await user.type(input, '2511');
    expect(input).toHaveValue('25/11/');
    await user.type(input, '{Backspace}');
    expect(input).toHaveValue('25/11');
    await user.type(input, '{Backspace}{Backspace}{Backspace}');
    expect(input).toHaveValue('25');
    await user.type(input, '0');
    expect(input).toHaveValue('25/0');
  });

  it('tidies a pasted or auto-filled date', () => {
    render(<Harness />);
    const input = screen.getByRole('textbox', { name: 'Date of birth' });
    fireEvent.change(input, { target: { value: '1978-11-25' } });
    expect(input).toHaveValue('25/11/1978');
    fireEvent.change(input, { target: { value: '' } });
    fireEvent.change(input, { target: { value: '03.04.1990' } });
    expect(input).toHaveValue('03/04/1990');
  });
});

import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CheckboxGroup } from './checkbox-group';

const options = [
  { value: 'email', label: 'Email' },
  { value: 'phone', label: 'Phone' },
  { value: 'post', label: 'Post' },
];

function Harness() {
  const [value, setValue] = useState<string[]>([]);
  return (
    <>
      <CheckboxGroup
        id="channels"
        name="channels"
        legend="How may we contact you about offers?"
        hint="Select all that apply."
        options={options}
        value={value}
        onChange={setValue}
      />
      <p>Chosen: {value.join(',') || 'none'}</p>
    </>
  );
}

describe('CheckboxGroup', () => {
  it('is a group named by its legend, first checkbox carrying the group id', () => {
    render(<Harness />);
    expect(
      screen.getByRole('group', { name: 'How may we contact you about offers?' }),
    ).toHaveAccessibleDescription('Select all that apply.');
    expect(screen.getByRole('checkbox', { name: 'Email' })).toHaveAttribute('id', 'channels');
    expect(screen.getByRole('checkbox', { name: 'Post' })).toHaveAttribute('id', 'channels-3');
  });

  it('keeps the ticked values in option order', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('checkbox', { name: 'Post' }));
    await user.click(screen.getByText('Email'));
    expect(screen.getByText('Chosen: email,post')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Post' }));
    expect(screen.getByText('Chosen: email')).toBeInTheDocument();
    screen.getByRole('checkbox', { name: 'Email' }).focus();
    await user.tab();
    await user.keyboard(' ');
    expect(screen.getByText('Chosen: email,phone')).toBeInTheDocument();
  });
});

import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { RadioGroup } from './radio-group';

const options = [
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No', hint: 'You can change this later' },
];

function Harness({ error }: { error?: string }) {
  const [value, setValue] = useState<string | null>(null);
  return (
    <>
      <RadioGroup
        id="online"
        name="online"
        legend="Can we show you offers online?"
        hint="Choose one"
        error={error}
        options={options}
        value={value}
        onChange={setValue}
        inline
      />
      <p>Chosen: {value ?? 'none'}</p>
    </>
  );
}

describe('RadioGroup', () => {
  it('groups the radios under the legend with the hint and error as its description', () => {
    render(<Harness error="Choose yes or no" />);
    const group = screen.getByRole('group', { name: 'Can we show you offers online?' });
    expect(group).toHaveAccessibleDescription('Choose one Error: Choose yes or no');
    expect(screen.getByRole('radio', { name: 'Yes' })).toHaveAttribute('id', 'online');
    expect(screen.getByRole('radio', { name: 'No' })).toHaveAttribute('id', 'online-2');
    expect(screen.getByRole('radio', { name: 'No' })).toHaveAccessibleDescription(
      'You can change this later',
    );
  });

  it('selects one answer at a time, by pointer or keyboard', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByText('Yes'));
    expect(screen.getByRole('radio', { name: 'Yes' })).toBeChecked();
    expect(screen.getByText('Chosen: yes')).toBeInTheDocument();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('radio', { name: 'No' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Yes' })).not.toBeChecked();
    expect(screen.getByText('Chosen: no')).toBeInTheDocument();
  });
});

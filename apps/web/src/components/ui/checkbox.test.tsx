import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Checkbox } from './checkbox';

describe('Checkbox', () => {
  it('toggles from its label and the keyboard', async () => {
    const user = userEvent.setup();
    function Harness() {
      const [checked, setChecked] = useState(false);
      return (
        <Checkbox
          id="paperless"
          label="Send my documents by email"
          hint="We will stop posting them"
          checked={checked}
          onChange={setChecked}
        />
      );
    }
    render(<Harness />);
    const box = screen.getByRole('checkbox', { name: 'Send my documents by email' });
    expect(box).toHaveAccessibleDescription('We will stop posting them');
    await user.click(screen.getByText('Send my documents by email'));
    expect(box).toBeChecked();
    await user.keyboard(' ');
    expect(box).not.toBeChecked();
  });

  it('can show an error linked to the box', () => {
    render(
      <Checkbox
        id="agree"
        label="I agree"
        checked={false}
        onChange={() => undefined}
        error="Tick to agree"
      />,
    );
    const box = screen.getByRole('checkbox', { name: 'I agree' });
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(box).toHaveAccessibleDescription('Error: Tick to agree');
  });
});

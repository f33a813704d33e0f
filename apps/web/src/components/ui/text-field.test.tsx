import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { TextField } from './text-field';

describe('TextField', () => {
  it('labels the input and reports each change with its value', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    function Harness() {
      const [value, setValue] = useState('');
      return (
        <TextField
          id="email"
          label="Email address"
          type="email"
          autoComplete="email"
          value={value}
          onChange={(v) => {
            setValue(v);
            onChange(v);
          }}
        />
      );
    }
    render(<Harness />);
    const input = screen.getByRole('textbox', { name: 'Email address' });
    expect(input).toHaveAttribute('autocomplete', 'email');
    await user.type(input, 'ab');
    expect(onChange).toHaveBeenLastCalledWith('ab');
    expect(input).not.toHaveAttribute('aria-invalid');
    expect(input).not.toHaveAttribute('aria-describedby');
  });

  it('falls back to the label "Label"', () => {
    render(<TextField id="x" value="" onChange={() => undefined} />);
    expect(screen.getByRole('textbox', { name: 'Label' })).toBeInTheDocument();
  });

  it('links the hint and the error, marks the input invalid and prefixes the error for screen readers', () => {
    render(
      <TextField
        id="postcode"
        label="Postcode"
        hint="For example, SW1A 1AA"
        error="Enter a real postcode"
        value="x"
        onChange={() => undefined}
        required
      />,
    );
    const input = screen.getByRole('textbox', { name: 'Postcode' });
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAttribute('aria-required', 'true');
    // aria-required only: the attribute would bring the browser's own validation bubble.
    expect(input).not.toHaveAttribute('required');
    expect(input).toHaveAttribute('aria-describedby', 'postcode-hint postcode-error');
    expect(input).toHaveAccessibleDescription('For example, SW1A 1AA Error: Enter a real postcode');
    expect(screen.getByText('Error:')).toHaveClass('ui-visually-hidden');
  });

  it('takes an error of paragraphs (content rich text) without putting a block inside a paragraph', () => {
    const { container } = render(
      <TextField
        id="code"
        label="Security code"
        error={
          <div className="rich-text">
            <p>That code is not right.</p>
            <p>Check the latest message and try again.</p>
          </div>
        }
        value="12"
        onChange={() => undefined}
      />,
    );
    expect(container.querySelector('p div, p p')).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Security code' })).toHaveAccessibleDescription(
      'Error: That code is not right. Check the latest message and try again.',
    );
  });

  it('shows tooltip help as a details disclosure', async () => {
    const user = userEvent.setup();
    render(
      <TextField
        id="policy"
        label="Policy number"
        tooltip="You can find it at the top of your schedule."
        value=""
        onChange={() => undefined}
      />,
    );
    const summary = screen.getByText('Help with Policy number');
    const help = screen.getByText('You can find it at the top of your schedule.');
    expect(help).not.toBeVisible();
    await user.click(summary);
    expect(help).toBeVisible();
  });

  it('can make the label the page heading', () => {
    render(
      <TextField
        id="e"
        label="What is your email address?"
        labelAsHeading
        value=""
        onChange={() => undefined}
      />,
    );
    expect(
      screen.getByRole('heading', { level: 1, name: 'What is your email address?' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'What is your email address?' })).toBeInTheDocument();
  });
});

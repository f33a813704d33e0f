import { useRef, useState } from 'react';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { emptyCode } from '../../lib/validation/challenge-code';
import { CodeInput, type CodeInputHandle, type CodeInputState } from './code-input';

function Harness({ length = 6, onState }: { length?: number; onState?: (state: CodeInputState) => void }) {
  const [boxes, setBoxes] = useState(() => emptyCode(length));
  const ref = useRef<CodeInputHandle>(null);
  return (
    <>
      <CodeInput
        ref={ref}
        id="code"
        length={length}
        legend="Enter the security code"
        hint="We sent it to your phone"
        value={boxes}
        onChange={(next, state) => {
          setBoxes(next);
          onState?.(state);
        }}
      />
      <button
        type="button"
        onClick={() => {
          setBoxes(emptyCode(length));
          ref.current?.focus();
        }}
      >
        Clear
      </button>
    </>
  );
}

const boxes = () => screen.getAllByRole('textbox') as HTMLInputElement[];
const values = () => boxes().map((b) => b.value);
const box = (position: number, total = 6) =>
  screen.getByRole('textbox', { name: `Digit ${position} of ${total}` });

describe('CodeInput', () => {
  it('renders one labelled numeric box per digit inside a fieldset', () => {
    render(<Harness />);
    expect(screen.getByRole('group', { name: 'Enter the security code' })).toHaveAccessibleDescription(
      'We sent it to your phone',
    );
    expect(boxes()).toHaveLength(6);
    boxes().forEach((input, i) => {
      expect(input).toHaveAccessibleName(`Digit ${i + 1} of 6`);
      expect(input).toHaveAttribute('inputmode', 'numeric');
      expect(input).toHaveAttribute('autocomplete', i === 0 ? 'one-time-code' : 'off');
    });
    expect(boxes()[0]).toHaveAttribute('id', 'code');
    expect(boxes()[1]).toHaveAttribute('id', 'code-2');
  });

  it('has five boxes for a landline code', () => {
    render(<Harness length={5} />);
    expect(boxes()).toHaveLength(5);
    expect(box(5, 5)).toBeInTheDocument();
  });

  it('fills boxes as digits are typed, moving focus forward, and reports the code', async () => {
    const user = userEvent.setup();
    const onState = vi.fn();
    render(<Harness onState={onState} />);
    await user.click(box(1));
    await user.keyboard('12');
    expect(box(3)).toHaveFocus();
    await user.keyboard('3456');
    expect(values()).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(box(6)).toHaveFocus();
    expect(onState).toHaveBeenLastCalledWith({ code: '123456', complete: true });
    expect(onState).toHaveBeenNthCalledWith(2, { code: '12', complete: false });
  });

  it('moves on when the same digit is typed again over a selected box', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(box(1));
    await user.keyboard('7');
    await user.click(box(1));
    await user.keyboard('7');
    expect(box(2)).toHaveFocus();
    expect(values()[0]).toBe('7');
  });

  it('rejects letters and symbols and says why', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(box(1));
    await user.keyboard('a');
    expect(values()[0]).toBe('');
    expect(box(1)).toHaveFocus();
    expect(screen.getByRole('status')).toHaveTextContent('Enter numbers only');
    await user.keyboard('-4');
    expect(values()).toEqual(['4', '', '', '', '', '']);
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });

  it('rejects a non-digit arriving as a change without a key press', () => {
    render(<Harness />);
    fireEvent.change(box(2), { target: { value: 'x' } });
    expect(values()[1]).toBe('');
    expect(screen.getByRole('status')).toHaveTextContent('Enter numbers only');
  });

  it('Backspace clears a filled box, then moves back and clears the previous one', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(box(1));
    await user.keyboard('123');
    expect(box(4)).toHaveFocus();
    await user.keyboard('{Backspace}');
    expect(values()).toEqual(['1', '2', '', '', '', '']);
    expect(box(3)).toHaveFocus();
    await user.keyboard('{Backspace}');
    expect(values()).toEqual(['1', '', '', '', '', '']);
    expect(box(2)).toHaveFocus();
    await user.click(box(1));
    await user.keyboard('{Backspace}');
    expect(values()).toEqual(['', '', '', '', '', '']);
    expect(box(1)).toHaveFocus();
    await user.keyboard('{Backspace}');
    expect(box(1)).toHaveFocus();
  });

  it('moves with the arrow keys, Home and End', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(box(3));
    await user.keyboard('{ArrowRight}');
    expect(box(4)).toHaveFocus();
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(box(2)).toHaveFocus();
    await user.keyboard('{End}');
    expect(box(6)).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(box(6)).toHaveFocus();
    await user.keyboard('{Home}');
    expect(box(1)).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(box(1)).toHaveFocus();
  });

  it('spreads a full code typed into box 3 (a keyboard suggestion) across all boxes', () => {
    const onState = vi.fn();
    render(<Harness onState={onState} />);
    fireEvent.change(box(3), { target: { value: '482913' } });
    expect(values()).toEqual(['4', '8', '2', '9', '1', '3']);
    expect(box(6)).toHaveFocus();
    expect(onState).toHaveBeenLastCalledWith({ code: '482913', complete: true });
  });

  it('spreads a code auto-filled into the first box from the text message', () => {
    render(<Harness />);
    fireEvent.change(box(1), { target: { value: '135790' } });
    expect(values()).toEqual(['1', '3', '5', '7', '9', '0']);
  });

  it('ignores a partial run of digits arriving in one box', () => {
    render(<Harness />);
    fireEvent.change(box(1), { target: { value: '135' } });
    expect(values()).toEqual(['', '', '', '', '', '']);
  });

  it('accepts a paste of exactly six digits into any box', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(box(2));
    await user.paste('654321');
    expect(values()).toEqual(['6', '5', '4', '3', '2', '1']);
    expect(box(6)).toHaveFocus();
  });

  it('accepts a pasted code with a trailing newline from a message', async () => {
    const user = userEvent.setup();
    render(<Harness length={5} />);
    await user.click(box(1, 5));
    await user.paste('24680\n');
    expect(values()).toEqual(['2', '4', '6', '8', '0']);
  });

  it('ignores a paste with the wrong number of digits and announces it', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(box(1));
    await user.keyboard('9');
    await user.paste('12345');
    expect(values()).toEqual(['9', '', '', '', '', '']);
    expect(screen.getByRole('status')).toHaveTextContent('Paste all 6 digits of the code, numbers only.');
    await user.paste('1234567');
    expect(values()).toEqual(['9', '', '', '', '', '']);
  });

  it('ignores a paste containing anything but digits', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(box(1));
    await user.paste('12a456');
    expect(values()).toEqual(['', '', '', '', '', '']);
    await user.paste('123 456');
    expect(values()).toEqual(['', '', '', '', '', '']);
    expect(screen.getByRole('status')).not.toBeEmptyDOMElement();
  });

  it('can be cleared and refocused by its parent, as after a wrong code', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(box(1));
    await user.keyboard('123456');
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(values()).toEqual(['', '', '', '', '', '']);
    expect(box(1)).toHaveFocus();
  });

  it('marks every box invalid and links the error to the group', () => {
    render(
      <CodeInput
        id="c"
        length={6}
        value={emptyCode(6)}
        onChange={() => undefined}
        legend="Code"
        error="Enter the 6-digit code"
      />,
    );
    expect(screen.getByRole('group', { name: 'Code' })).toHaveAccessibleDescription(
      'Error: Enter the 6-digit code',
    );
    for (const input of boxes()) expect(input).toHaveAttribute('aria-invalid', 'true');
  });
});

describe('code input errors', () => {
  it('shows an error that is rich text as valid HTML: no paragraph holds a block', () => {
    render(
      <CodeInput
        id="code"
        length={6}
        legend="Enter the security code"
        value={emptyCode(6)}
        onChange={() => undefined}
        error={
          <div className="rich-text">
            <p>That security code has expired.</p>
          </div>
        }
      />,
    );
    const message = screen.getByText(/has expired/).closest('.ui-error-message');
    expect(message).toHaveTextContent('Error: That security code has expired.');
    expect(document.querySelector('p div, p p')).toBeNull();
  });
});

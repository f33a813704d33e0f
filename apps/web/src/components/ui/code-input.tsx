import {
  useImperativeHandle,
  useRef,
  useState,
  type ChangeEvent,
  type ClipboardEvent,
  type KeyboardEvent,
  type ReactNode,
  type Ref,
} from 'react';
import {
  applyBoxInput,
  applyPaste,
  codeValue,
  isCodeComplete,
  isCodeDigit,
  type CodeChange,
} from '../../lib/validation/challenge-code';
import { cx } from './class-names';
import { Fieldset } from './fieldset';
import './ui.css';

export interface CodeInputState {
  /** The concatenation of the boxes holding a valid digit. */
  code: string;
  /** Every box holds a digit. */
  complete: boolean;
}

export interface CodeInputHandle {
  /** Focus a box (default the first), e.g. after a wrong code clears the boxes. */
  focus: (index?: number) => void;
}

export interface CodeInputProps {
  /** The first box's id (error summary target); other boxes are `{id}-2`, `{id}-3`, ... */
  id: string;
  /** Number of boxes: 6 for a mobile code, 5 for a landline code. */
  length: number;
  /** One entry per box (see emptyCode); missing entries show empty. */
  value: readonly string[];
  onChange: (boxes: string[], state: CodeInputState) => void;
  legend: ReactNode;
  legendAsHeading?: boolean;
  hint?: ReactNode;
  error?: ReactNode;
  disabled?: boolean;
  /** Accessible name of each box; defaults to "Digit 2 of 6". */
  digitLabel?: (position: number, length: number) => string;
  /** Said when a paste is refused; defaults to a sentence naming the digit count. */
  pasteRejectedText?: string;
  /** Said when a non-digit is typed. */
  digitsOnlyText?: string;
  className?: string;
  ref?: Ref<CodeInputHandle>;
}

const boxId = (id: string, index: number) => (index === 0 ? id : `${id}-${index + 1}`);

/**
 * One-time code in single-digit boxes (spec: digits only, one per box, 6 for mobile and 5 for landline).
 * Typing moves forward, Backspace on an empty box moves back, arrows and Home/End move. A full code
 * entered into any box - typed by a keyboard suggestion or filled by the phone from the text message
 * (autocomplete="one-time-code" on the first box) - spreads across all the boxes. A paste is accepted
 * only when it is exactly the right number of digits; otherwise it is ignored and that is announced.
 */
export function CodeInput({
  id,
  length,
  value,
  onChange,
  legend,
  legendAsHeading,
  hint,
  error,
  disabled,
  digitLabel = (position, total) => `Digit ${position} of ${total}`,
  pasteRejectedText,
  digitsOnlyText = 'Enter numbers only',
  className,
  ref,
}: CodeInputProps) {
  const inputs = useRef<Array<HTMLInputElement | null>>([]);
  const [status, setStatus] = useState('');
  const boxes = Array.from({ length }, (_, i) => value[i] ?? '');

  const focusBox = (index: number) => {
    const input = inputs.current[Math.max(0, Math.min(index, length - 1))];
    input?.focus();
    input?.select();
  };

  useImperativeHandle(ref, () => ({ focus: (index = 0) => focusBox(index) }));

  const commit = (change: CodeChange) => {
    setStatus('');
    onChange(change.boxes, { code: codeValue(change.boxes), complete: isCodeComplete(change.boxes, length) });
    focusBox(change.focusIndex);
  };

  const setBox = (index: number, digit: string) => {
    const next = [...boxes];
    next[index] = digit;
    commit({
      boxes: next,
      focusIndex: digit === '' ? index : Math.min(index + 1, length - 1),
      accepted: true,
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>, index: number) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const { key } = event;
    if (isCodeDigit(key)) {
      // Handled here rather than on change so retyping the same digit still moves on.
      event.preventDefault();
      setBox(index, key);
    } else if (key === 'Backspace') {
      if (boxes[index] === '' && index > 0) {
        event.preventDefault();
        setBox(index - 1, '');
      }
    } else if (key === 'ArrowLeft' || key === 'ArrowRight' || key === 'Home' || key === 'End') {
      event.preventDefault();
      const target = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: length - 1 }[key];
      focusBox(target);
    } else if (key.length === 1) {
      event.preventDefault();
      if (key !== ' ') setStatus(digitsOnlyText);
    }
  };

  // Virtual keyboards, keyboard suggestions and autofill arrive here without a usable keydown.
  const onInputChange = (event: ChangeEvent<HTMLInputElement>, index: number) => {
    const change = applyBoxInput(boxes, index, event.target.value);
    if (change.accepted) commit(change);
    else if (/[^0-9\s]/.test(event.target.value)) setStatus(digitsOnlyText);
  };

  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    const change = applyPaste(boxes, event.clipboardData.getData('text'));
    if (change.accepted) commit(change);
    else
      setStatus(
        pasteRejectedText ?? `That paste was not used. Paste all ${length} digits of the code, numbers only.`,
      );
  };

  return (
    <Fieldset
      id={id}
      legend={legend}
      legendAsHeading={legendAsHeading}
      hint={hint}
      error={error}
      className={className}
    >
      <div className="ui-code-input">
        {boxes.map((digit, index) => (
          <input
            key={index}
            ref={(node) => {
              inputs.current[index] = node;
            }}
            id={boxId(id, index)}
            className={cx('ui-code-input__box', error ? 'ui-input--error' : null)}
            type="text"
            inputMode="numeric"
            autoComplete={index === 0 ? 'one-time-code' : 'off'}
            aria-label={digitLabel(index + 1, length)}
            aria-invalid={error ? true : undefined}
            value={digit}
            disabled={disabled}
            onKeyDown={(event) => onKeyDown(event, index)}
            onChange={(event) => onInputChange(event, index)}
            onPaste={onPaste}
            onFocus={(event) => event.target.select()}
          />
        ))}
      </div>
      <p className="ui-code-input__status" role="status">
        {status}
      </p>
    </Fieldset>
  );
}

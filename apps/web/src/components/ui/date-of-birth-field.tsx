import { formatDateOfBirthInput } from '../../lib/validation/date-of-birth';
import { TextField, type TextFieldProps } from './text-field';

export interface DateOfBirthFieldProps extends Omit<
  TextFieldProps,
  'type' | 'inputMode' | 'maxLength' | 'onChange' | 'autoComplete' | 'width'
> {
  /** Receives the formatted DD/MM/YYYY text; convert with toIsoDate before sending. */
  onChange: (value: string) => void;
}

/**
 * Date of birth as one DD/MM/YYYY text input. The numeric keypad phones show has no slash, so the
 * slashes are inserted while typing (and removed cleanly by Backspace). No maxLength attribute: the
 * browser would cut a pasted "25 / 11 / 1978" before the helper could tidy it; the helper stops at 10.
 */
export function DateOfBirthField({
  value,
  onChange,
  hint = 'For example, 27/03/1985',
  ...rest
}: DateOfBirthFieldProps) {
  return (
    <TextField
      {...rest}
      hint={hint}
      value={value}
      onChange={(raw) => onChange(formatDateOfBirthInput(raw, value))}
      type="text"
      inputMode="numeric"
      autoComplete="bday"
      width={10}
      spellCheck={false}
    />
  );
}

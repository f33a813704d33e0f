import { useEffect, useRef, useState } from 'react';
import { PASSWORD_MAX_LENGTH } from '@portal/contracts/field-rules';
import { Button } from './button';
import { TextField, type TextFieldProps } from './text-field';
import { VisuallyHidden } from './visually-hidden';
import './ui.css';

export interface PasswordFieldProps extends Omit<TextFieldProps, 'type' | 'suffix' | 'autoComplete'> {
  /** current-password for sign-in and the current password; new-password for a new one. */
  autoComplete: 'current-password' | 'new-password';
  /** Visible button texts (content commonTexts). */
  showText?: string;
  hideText?: string;
  /** Accessible names of the button in each state. */
  showLabel?: string;
  hideLabel?: string;
  /** Announced after each toggle. */
  shownAnnouncement?: string;
  hiddenAnnouncement?: string;
}

/**
 * Password input with a Show/Hide button (GOV.UK password input): the button's name says what it will
 * do, and the new state is announced politely. It hides again when its form submits, so a revealed
 * password is never left on screen or offered to the browser's history of visible text fields.
 */
export function PasswordField({
  showText = 'Show',
  hideText = 'Hide',
  showLabel = 'Show password',
  hideLabel = 'Hide password',
  shownAnnouncement = 'Your password is visible',
  hiddenAnnouncement = 'Your password is hidden',
  ref,
  maxLength = PASSWORD_MAX_LENGTH,
  disabled,
  ...rest
}: PasswordFieldProps) {
  const [visible, setVisible] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const inputRef = useRef<HTMLInputElement | null>(null);

  const setRefs = (node: HTMLInputElement | null) => {
    inputRef.current = node;
    if (typeof ref === 'function') ref(node);
    else if (ref) ref.current = node;
  };

  useEffect(() => {
    const form = inputRef.current?.form;
    if (!form) return;
    const hide = () => {
      setVisible(false);
      setAnnouncement('');
    };
    form.addEventListener('submit', hide);
    return () => form.removeEventListener('submit', hide);
  }, []);

  const toggle = () => {
    const next = !visible;
    setVisible(next);
    setAnnouncement(next ? shownAnnouncement : hiddenAnnouncement);
  };

  return (
    <TextField
      {...rest}
      ref={setRefs}
      type={visible ? 'text' : 'password'}
      autoCapitalize="none"
      autoCorrect="off"
      spellCheck={false}
      maxLength={maxLength}
      disabled={disabled}
      suffix={
        <>
          <Button
            variant="secondary"
            className="ui-password-toggle"
            aria-controls={rest.id}
            aria-label={visible ? hideLabel : showLabel}
            disabled={disabled}
            onClick={toggle}
          >
            {visible ? hideText : showText}
          </Button>
          <VisuallyHidden aria-live="polite">{announcement}</VisuallyHidden>
        </>
      }
    />
  );
}

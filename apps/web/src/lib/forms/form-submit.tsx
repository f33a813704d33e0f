import type { FormEvent, ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import type { FormController } from './use-form';

/**
 * The start of a content form's submit handler (spec section 5): nothing while a send is under way, and
 * an invalid form shows what to fix instead of being sent. Answers whether to send now.
 */
export function readyToSend(
  event: FormEvent<HTMLFormElement>,
  form: FormController,
  { submitting, ready = form.canSubmit }: { submitting: boolean; ready?: boolean },
): boolean {
  event.preventDefault();
  if (submitting) return false;
  if (!ready) {
    form.revealErrors();
    return false;
  }
  return true;
}

export interface FormSubmitButtonProps {
  form: FormController;
  /** Whether the form may be sent; the form's own validity unless the page adds a rule. */
  ready?: boolean;
  submitting: boolean;
  /** Announced while the form is being sent (content's "loading" text). */
  submittingText: string | undefined;
  /** The page-level error the button should be described by, when one shows. */
  describedBy?: string;
  children: ReactNode;
}

/** A content form's submit button: disabled until the form is valid, and activating it then reveals why. */
export function FormSubmitButton({
  form,
  ready = form.canSubmit,
  submitting,
  submittingText,
  describedBy,
  children,
}: FormSubmitButtonProps) {
  return (
    <Button
      type="submit"
      disabled={!ready}
      submitting={submitting}
      submittingText={submittingText}
      onDisabledClick={() => form.revealErrors()}
      aria-describedby={describedBy}
    >
      {children}
    </Button>
  );
}

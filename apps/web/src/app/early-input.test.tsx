import {
  EARLY_SUBMIT_GLOBAL,
  EARLY_SUBMIT_HELD_ATTRIBUTE,
  EARLY_SUBMIT_SCRIPT,
} from '@portal/contracts/server-render';
import { act, waitFor } from '@testing-library/react';
import { useState, type FormEvent } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Checkbox } from '../components/ui/checkbox';
import { RadioGroup } from '../components/ui/radio-group';
import { TextField } from '../components/ui/text-field';
import { FormSubmitButton, readyToSend } from '../lib/forms/form-submit';
import { useForm } from '../lib/forms/use-form';
import type { FieldDefinition } from '../lib/validation/field';
import { releaseSubmits, TakeOverEarlyInput } from './early-input';

/*
 * A server-rendered form, typed into before the app takes it over (decision 031): the app's state must
 * start from what the customer typed, and a submit the page's guard held must be sent with it.
 */

const fields: FieldDefinition[] = [
  { name: 'email', type: 'email', label: 'Email address', required: true },
  { name: 'terms', type: 'checkbox', label: 'I accept the terms', required: true },
];

function SignUp({ onSend }: { onSend: (values: Record<string, unknown>) => void }) {
  const form = useForm({ fields });
  const [contact, setContact] = useState('text');
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (!readyToSend(event, form, { submitting: false })) return;
    onSend({ ...form.values, contact });
  };
  return (
    <form noValidate method="post" onSubmit={onSubmit} aria-label="Sign up">
      <TextField
        id="email"
        name="email"
        label="Email address"
        value={String(form.values['email'])}
        onChange={(v) => form.setValue('email', v)}
        onBlur={() => form.blur('email')}
        error={form.errorFor('email')}
      />
      <Checkbox
        id="terms"
        name="terms"
        label="I accept the terms"
        checked={form.values['terms'] === true}
        onChange={(checked) => form.setValue('terms', checked)}
      />
      <RadioGroup
        id="contact"
        name="contact"
        legend="How shall we contact you?"
        options={[
          { value: 'text', label: 'Text message' },
          { value: 'voice', label: 'Voice call' },
        ]}
        value={contact}
        onChange={(v) => setContact(v)}
      />
      <FormSubmitButton form={form} submitting={false} submittingText="Sending">
        Continue
      </FormSubmitButton>
    </form>
  );
}

interface Held {
  live: boolean;
  form: HTMLFormElement | null;
  submitter: HTMLElement | null;
}

let root: Root | undefined;
let container: HTMLElement | undefined;

afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
  root = undefined;
  // The guard of a test's page stays on the document: released, it holds nothing in the next test.
  releaseSubmits();
  delete (window as unknown as Record<string, unknown>)[EARLY_SUBMIT_GLOBAL];
});

/** The server's markup on the page, with the page's submit guard: the script the server sends, run. */
function serverPage(onSend: (values: Record<string, unknown>) => void) {
  container = document.createElement('div');
  container.innerHTML = renderToString(<SignUp onSend={onSend} />);
  document.body.append(container);
  new Function(EARLY_SUBMIT_SCRIPT)();
  const held = (window as unknown as Record<string, Held>)[EARLY_SUBMIT_GLOBAL]!;
  return { container, held };
}

function field<T extends HTMLElement>(selector: string): T {
  return container!.querySelector<T>(selector)!;
}

function takeOver(onSend: (values: Record<string, unknown>) => void) {
  act(() => {
    root = hydrateRoot(
      container!,
      <TakeOverEarlyInput container={container!}>
        <SignUp onSend={onSend} />
      </TakeOverEarlyInput>,
    );
  });
}

describe('what a customer typed before the app took the page over', () => {
  it("is kept, and the app's state starts from it", async () => {
    const onSend = vi.fn();
    serverPage(onSend);
    const continueButton = field<HTMLButtonElement>('button[type="submit"]');
    expect(continueButton.getAttribute('aria-disabled')).toBe('true');
    // Typed (or filled by a password manager) while the app's code was still on its way.
    field<HTMLInputElement>('#email').value = 'helen@example.com';
    field<HTMLInputElement>('#terms').checked = true;
    field<HTMLInputElement>('input[value="voice"]').click();

    takeOver(onSend);

    // The form knows it is filled in: Continue is available.
    await waitFor(() => expect(continueButton.getAttribute('aria-disabled')).toBeNull());
    expect(field<HTMLInputElement>('#email').value).toBe('helen@example.com');
    expect(field<HTMLInputElement>('#terms').checked).toBe(true);
    expect(field<HTMLInputElement>('input[value="voice"]').checked).toBe(true);
    // A later render (sending the form) keeps it, and sends it.
    act(() => continueButton.click());
    expect(onSend).toHaveBeenCalledWith({ email: 'helen@example.com', terms: true, contact: 'voice' });
    expect(field<HTMLInputElement>('#email').value).toBe('helen@example.com');
  });

  it('a form sent before the takeover is held, then sent once with what was typed', async () => {
    const onSend = vi.fn();
    const { held } = serverPage(onSend);
    field<HTMLInputElement>('#email').value = 'helen@example.com';
    field<HTMLInputElement>('#terms').checked = true;
    // Continue pressed before the app is there: the guard holds it; nothing is sent natively.
    field<HTMLButtonElement>('button[type="submit"]').click();
    expect(held.form).toBe(field('form'));
    // The press is seen to be taken: the button is busy, with the spinner its held mark shows.
    expect(field('button[type="submit"]')).toHaveAttribute('aria-busy', 'true');
    expect(field('button[type="submit"]')).toHaveAttribute(EARLY_SUBMIT_HELD_ATTRIBUTE);

    takeOver(onSend);

    await waitFor(() => expect(onSend).toHaveBeenCalledTimes(1));
    expect(onSend).toHaveBeenCalledWith({ email: 'helen@example.com', terms: true, contact: 'text' });
    expect(held.live).toBe(true);
    expect(held.form).toBeNull();
    expect(field('button[type="submit"]')).not.toHaveAttribute(EARLY_SUBMIT_HELD_ATTRIBUTE);
  });

  it('a form sent before the takeover that is not complete shows what to fix instead', async () => {
    const onSend = vi.fn();
    serverPage(onSend);
    field<HTMLInputElement>('#email').value = 'helen@';
    field<HTMLButtonElement>('button[type="submit"]').click();

    takeOver(onSend);

    await waitFor(() => expect(container!.querySelector('#email-error')).not.toBeNull());
    expect(onSend).not.toHaveBeenCalled();
    expect(field<HTMLInputElement>('#email').value).toBe('helen@');
    // Nothing is being sent: the button no longer says it is busy.
    expect(field('button[type="submit"]')).not.toHaveAttribute('aria-busy');
    expect(field('button[type="submit"]')).not.toHaveAttribute(EARLY_SUBMIT_HELD_ATTRIBUTE);
  });

  it('a field changed again after the takeover keeps its newest value', async () => {
    const onSend = vi.fn();
    serverPage(onSend);
    field<HTMLInputElement>('#email').value = 'helen@example';
    takeOver(onSend);
    // Before the hand-over has run, the customer types on (the app sees that change itself).
    const email = field<HTMLInputElement>('#email');
    act(() => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(
        email,
        'helen@example.com',
      );
      email.dispatchEvent(new Event('input', { bubbles: true }));
    });
    field<HTMLInputElement>('#terms').click();
    const continueButton = field<HTMLButtonElement>('button[type="submit"]');
    await waitFor(() => expect(continueButton.getAttribute('aria-disabled')).toBeNull());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(email.value).toBe('helen@example.com');
    act(() => continueButton.click());
    expect(onSend).toHaveBeenCalledWith({ email: 'helen@example.com', terms: true, contact: 'text' });
  });

  it('releaseSubmits lets forms send themselves: the guard holds nothing more', () => {
    const { held } = serverPage(vi.fn());
    releaseSubmits();
    expect(held.live).toBe(true);
  });
});

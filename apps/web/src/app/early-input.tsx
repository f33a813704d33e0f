import { EARLY_SUBMIT_GLOBAL, EARLY_SUBMIT_HELD_ATTRIBUTE } from '@portal/contracts/server-render';
import { useLayoutEffect, type ReactNode } from 'react';
import { whenStarted } from './startup';

/*
 * What a customer does on a server-rendered page before the app has taken it over (decision 031). On a
 * slow phone the form is on screen seconds before its code arrives, and people type (or a password manager
 * fills) in the meantime. React keeps what the fields show when it hydrates them, but its state starts from
 * the server's empty values: the next render would empty the fields again, and the form would think itself
 * unfilled. So the moment the app has the page, what was typed is handed to it as the changes they are,
 * and a form sent in the meantime (held by the page's submit guard) is sent.
 */

/** What the page's submit guard (contracts' EARLY_SUBMIT_SCRIPT) holds. */
interface HeldSubmit {
  live: boolean;
  form: HTMLFormElement | null;
  submitter: HTMLElement | null;
}

function heldSubmit(): HeldSubmit | undefined {
  return (window as unknown as Record<string, HeldSubmit | undefined>)[EARLY_SUBMIT_GLOBAL];
}

/** From now on forms send themselves through the app: the page's guard holds nothing more. */
export function releaseSubmits(): void {
  const held = heldSubmit();
  if (held) held.live = true;
}

type Typed =
  | { element: HTMLInputElement | HTMLTextAreaElement; kind: 'text'; value: string; before: string }
  | { element: HTMLInputElement; kind: 'check'; checked: boolean };

/** Input types the customer types into (React's own list of text inputs). */
const TEXT_TYPES = new Set([
  'color',
  'date',
  'datetime',
  'datetime-local',
  'email',
  'month',
  'number',
  'password',
  'range',
  'search',
  'tel',
  'text',
  'time',
  'url',
  'week',
]);

/**
 * The fields in `container` whose value the customer changed before the app took them over. Read just
 * after hydration, when each field's default (value attribute, or checked) is what the app's state has.
 */
function typedBeforeTakeover(container: ParentNode): Typed[] {
  const typed: Typed[] = [];
  for (const element of container.querySelectorAll('input, textarea')) {
    if (element instanceof HTMLTextAreaElement || TEXT_TYPES.has((element as HTMLInputElement).type)) {
      const field = element as HTMLInputElement | HTMLTextAreaElement;
      if (field.value !== field.defaultValue)
        typed.push({ element: field, kind: 'text', value: field.value, before: field.defaultValue });
    } else if (element instanceof HTMLInputElement && element.type === 'checkbox') {
      if (element.checked !== element.defaultChecked)
        typed.push({ element, kind: 'check', checked: element.checked });
    } else if (element instanceof HTMLInputElement && element.type === 'radio') {
      // The option chosen carries the change; the one it replaced follows from it.
      if (element.checked && !element.defaultChecked) typed.push({ element, kind: 'check', checked: true });
    }
  }
  return typed;
}

/** The browser's own value setter, which React's change tracking does not see. */
function setNativeValue(element: HTMLInputElement | HTMLTextAreaElement, value: string) {
  const prototype =
    element instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(element, value);
}

/**
 * Hands each typed value to the app as the change it is, through the same events typing makes. Each one
 * renders the form, which puts the app's values into the fields not yet handed over: so each is set from
 * what was read at the takeover. A field the customer has changed since (the app has that) is left alone.
 */
function replay(typed: readonly Typed[], touched: ReadonlySet<EventTarget>) {
  for (const entry of typed) {
    const { element } = entry;
    if (!element.isConnected || touched.has(element)) continue;
    if (entry.kind === 'text') {
      const focused = document.activeElement === element;
      let selection: [number, number] | undefined;
      try {
        if (focused && element.selectionStart !== null && element.selectionEnd !== null)
          selection = [element.selectionStart, element.selectionEnd];
      } catch {
        // Some input types (email) have no selection.
      }
      // Through the element's own setter React notes the value it had; the browser's setter then puts the
      // typed value back without React noting it, so the input event is a change to React.
      element.value = entry.before;
      setNativeValue(element, entry.value);
      element.dispatchEvent(new Event('input', { bubbles: true }));
      if (selection) element.setSelectionRange(...selection);
    } else {
      // React notes the state before; the click then makes the change, as the customer's click did.
      entry.element.checked = !entry.checked;
      entry.element.click();
    }
  }
}

/** The fields the customer changes from now on, until the hand-over: the app sees those changes itself. */
function watchChanges(container: HTMLElement): { touched: Set<EventTarget>; stop: () => void } {
  const touched = new Set<EventTarget>();
  const note = (event: Event) => {
    if (event.target) touched.add(event.target);
  };
  container.addEventListener('input', note, true);
  container.addEventListener('change', note, true);
  return {
    touched,
    stop: () => {
      container.removeEventListener('input', note, true);
      container.removeEventListener('change', note, true);
    },
  };
}

/** Waits for the next task: React has committed what the events before it changed. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

const takenOver = new WeakSet<HTMLElement>();

/** After the takeover: the typed values first, then a held submit, with them, as the customer made it. */
async function takeOver(container: HTMLElement) {
  const typed = typedBeforeTakeover(container);
  const changes = watchChanges(container);
  await nextTask();
  changes.stop();
  replay(typed, changes.touched);
  await nextTask();
  // The form's send needs the app's start (page settings, the session layer), as a press after it would.
  await whenStarted();
  const held = heldSubmit();
  releaseSubmits();
  const form = held?.form;
  const submitter = held?.submitter ?? null;
  if (held) {
    held.form = null;
    held.submitter = null;
  }
  // The guard's busy marks go: from here the app's own button shows the send, or what to fix.
  if (submitter) {
    submitter.removeAttribute(EARLY_SUBMIT_HELD_ATTRIBUTE);
    submitter.removeAttribute('aria-busy');
  }
  if (!form?.isConnected) return;
  if (submitter?.isConnected && form.contains(submitter)) submitter.click();
  else form.requestSubmit();
}

/**
 * Wraps the app when it hydrates a server-rendered page: once React has the page (its layout effect runs
 * as the hydration commits, after every field's), what the customer did before is handed over.
 */
export function TakeOverEarlyInput({ container, children }: { container: HTMLElement; children: ReactNode }) {
  useLayoutEffect(() => {
    if (takenOver.has(container)) return;
    takenOver.add(container);
    void takeOver(container);
  }, [container]);
  return children;
}

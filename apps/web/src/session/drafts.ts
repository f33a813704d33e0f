import { useCallback, useEffect, useRef, useState } from 'react';

/*
 * What a customer was typing when the inactivity timer signed them out (issue 40 point 7): kept in this
 * browser's local storage, for that customer only, for at most a day, and given back to the same form
 * when they sign in again on this browser. Removed once the form is sent or the customer discards it.
 * Only what a form hands over is kept: forms never hand over passwords or codes.
 */

/** A kept field's value: text, a choice, or the choices of a checkbox group. */
type DraftValue = string | boolean | readonly string[];
export type DraftValues = Readonly<Record<string, DraftValue>>;

interface KeptDraft {
  customerId: string;
  /** The page the form is on, opened again after sign-in. */
  path: string;
  values: DraftValues;
  /** When it was kept (ms since the epoch). */
  keptAt: number;
}

const STORAGE_KEY = 'portal.keptDrafts';
/** A draft older than this is dropped unread. */
export const DRAFT_KEPT_MS = 24 * 60 * 60 * 1000;

/** What a mounted form has typed now (null: nothing worth keeping), for the customer it was opened for. */
interface OpenForm {
  customerId: string;
  current: () => DraftValues | null;
}

const openForms = new Map<string, OpenForm>();

function readAll(): Record<string, KeptDraft> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}');
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const now = Date.now();
    const kept: Record<string, KeptDraft> = {};
    for (const [form, draft] of Object.entries(parsed as Record<string, Partial<KeptDraft>>)) {
      if (
        typeof draft?.customerId === 'string' &&
        typeof draft.path === 'string' &&
        typeof draft.keptAt === 'number' &&
        draft.values &&
        typeof draft.values === 'object' &&
        now - draft.keptAt < DRAFT_KEPT_MS &&
        draft.keptAt <= now
      ) {
        kept[form] = draft as KeptDraft;
      }
    }
    return kept;
  } catch {
    return {};
  }
}

function writeAll(drafts: Record<string, KeptDraft>): void {
  try {
    if (Object.keys(drafts).length === 0) localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, JSON.stringify(drafts));
  } catch {
    // Storage full or refused (private browsing): the draft is not kept, as before this feature.
  }
}

/**
 * Keeps what every open form has typed, each for the customer it was opened for (the inactivity sign-out
 * calls this before it forgets the session). Answers the page of the first form kept, to open after the
 * next sign-in, or null when nothing was worth keeping.
 */
export function keepOpenDrafts(path: string): string | null {
  const drafts = readAll();
  let first: string | null = null;
  for (const [form, open] of openForms) {
    const values = open.current();
    if (!values) continue;
    drafts[form] = { customerId: open.customerId, path, values, keptAt: Date.now() };
    first ??= path;
  }
  writeAll(drafts);
  return first;
}

/** The draft kept for this customer's form, if any (another customer's is never given). */
function keptDraft(customerId: string, form: string): KeptDraft | null {
  const draft = readAll()[form];
  return draft && draft.customerId === customerId ? draft : null;
}

/** Forgets the form's kept draft (sent, discarded). */
function dropDraft(form: string): void {
  const drafts = readAll();
  delete drafts[form];
  writeAll(drafts);
}

export interface KeptDraftState {
  /** What was kept for this form and customer, read as the form opened: its fields start from it. */
  kept: DraftValues | null;
  /** Kept values were given back and not yet sent or discarded: the form says so. */
  restored: boolean;
  /** The form was sent: its draft goes. */
  sent(): void;
  /** The customer discards what was kept: its draft goes (the form empties its fields itself). */
  discard(): void;
}

/** What was kept for this customer's form, if anything, read once as the form opens, for its fields. */
export function useKeptDraft(form: string, customerId: string | undefined): KeptDraftState {
  const [kept] = useState(() => (customerId ? (keptDraft(customerId, form)?.values ?? null) : null));
  const [restored, setRestored] = useState(kept !== null);
  const sent = useCallback(() => {
    dropDraft(form);
    setRestored(false);
  }, [form]);
  return { kept, restored, sent, discard: sent };
}

/**
 * While the form is open, `current` answers what is worth keeping now (null when nothing is, never a
 * password or a code): asked only when the inactivity timer signs the customer out.
 */
export function useKeepDraftOnSignOut(
  form: string,
  customerId: string | undefined,
  current: () => DraftValues | null,
): void {
  const latest = useRef(current);
  useEffect(() => {
    latest.current = current;
  });
  useEffect(() => {
    if (!customerId) return;
    openForms.set(form, { customerId, current: () => latest.current() });
    return () => {
      if (openForms.get(form)?.customerId === customerId) openForms.delete(form);
    };
  }, [form, customerId]);
}

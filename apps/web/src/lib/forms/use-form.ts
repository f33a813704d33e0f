import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { type FieldContext, type FieldDefinition, type FieldValue } from '../validation/field';
import { evaluateForm, type FormError, type FormEvaluation } from '../validation/form';
import { afterPointerRelease, trackPointerPresses } from './pointer-press';

export interface UseFormOptions {
  /** The form's fields in display order (content `fields`). The first one drives the page-level error. */
  fields: readonly FieldDefinition[];
  /** Overrides content initial values. */
  initialValues?: Readonly<Record<string, FieldValue>>;
  /** Password rules for newPassword fields and "today" for date of birth. */
  context?: FieldContext;
}

export interface FormController {
  values: Readonly<Record<string, FieldValue>>;
  evaluation: FormEvaluation;
  /** Submit is enabled only when this is true (spec section 5). */
  canSubmit: boolean;
  /** The page-level form error: the first input has a value but the form is invalid. */
  showFormError: boolean;
  /** The inline error to show for a field now, or null. */
  errorFor: (name: string) => string | null;
  setValue: (name: string, value: FieldValue) => void;
  /**
   * Call from the field's onBlur. When a mouse press moved focus (e.g. onto Continue), the error waits
   * for the release, so the button does not move out from under the pointer mid-click.
   */
  blur: (name: string) => void;
  /**
   * Reveal every invalid field's error and return the evaluation, e.g. when a not-yet-valid submit button
   * is activated. Bumps submitCount, which ErrorSummary takes as its focusKey.
   */
  revealErrors: () => FormEvaluation;
  /** For ErrorSummary: the invalid fields, once errors have been revealed. */
  summaryErrors: FormError[];
  submitCount: number;
  /** Empty the named fields (all when none given) and hide their errors, e.g. after a wrong code. */
  clear: (names?: readonly string[]) => void;
}

/** The empty value of a field: a boolean for a single checkbox, a list for a checkbox group, else text. */
function emptyValue(definition: FieldDefinition): FieldValue {
  if (definition.type === 'checkbox') return definition.options && definition.options.length > 0 ? [] : false;
  return '';
}

function initialValue(
  definition: FieldDefinition,
  overrides?: Readonly<Record<string, FieldValue>>,
): FieldValue {
  const override = overrides?.[definition.name];
  if (override !== undefined) return override;
  if (definition.type === 'checkbox') {
    if (definition.options && definition.options.length > 0)
      return definition.value ? [definition.value] : [];
    return definition.value === 'true';
  }
  return definition.value ?? '';
}

/**
 * Form state with the spec's timing: validity is recomputed on every change, and an error is shown only
 * once the customer has left a field they changed (blur) or tried to submit - then it updates live and
 * disappears the moment the value becomes valid. Nobody is told off while still typing, and leaving a
 * field with a mouse press shows its error only after the release, so the click is not lost.
 */
export function useForm({ fields, initialValues, context }: UseFormOptions): FormController {
  const [values, setValues] = useState<Record<string, FieldValue>>(() =>
    Object.fromEntries(fields.map((f) => [f.name, initialValue(f, initialValues)])),
  );
  const [dirty, setDirty] = useState<ReadonlySet<string>>(() => new Set());
  const [revealed, setRevealed] = useState<ReadonlySet<string>>(() => new Set());
  const [submitCount, setSubmitCount] = useState(0);
  // Bumped for a field each time it is cleared: a reveal still waiting for the pointer's release belongs
  // to the value before, and must not mark the emptied field (e.g. a password cleared after a refusal).
  const clears = useRef(new Map<string, number>());

  useEffect(() => trackPointerPresses(), []);

  const evaluation = useMemo(
    () =>
      evaluateForm(
        fields.map((definition) => ({
          definition,
          value: values[definition.name] ?? emptyValue(definition),
        })),
        context,
      ),
    [fields, values, context],
  );

  const setValue = useCallback((name: string, value: FieldValue) => {
    setValues((current) => ({ ...current, [name]: value }));
    setDirty((current) => (current.has(name) ? current : new Set(current).add(name)));
  }, []);

  const blur = useCallback(
    (name: string) => {
      if (!dirty.has(name)) return;
      const clearedBefore = clears.current.get(name) ?? 0;
      afterPointerRelease(() => {
        if ((clears.current.get(name) ?? 0) !== clearedBefore) return;
        setRevealed((current) => (current.has(name) ? current : new Set(current).add(name)));
      });
    },
    [dirty],
  );

  const revealErrors = useCallback(() => {
    setRevealed(new Set(fields.map((f) => f.name)));
    setSubmitCount((n) => n + 1);
    return evaluation;
  }, [fields, evaluation]);

  const clear = useCallback(
    (names?: readonly string[]) => {
      const targets = new Set(names ?? fields.map((f) => f.name));
      for (const name of targets) clears.current.set(name, (clears.current.get(name) ?? 0) + 1);
      setValues((current) => {
        const next = { ...current };
        for (const f of fields) if (targets.has(f.name)) next[f.name] = emptyValue(f);
        return next;
      });
      const without = (current: ReadonlySet<string>) => new Set([...current].filter((n) => !targets.has(n)));
      setDirty(without);
      setRevealed(without);
    },
    [fields],
  );

  const errorFor = useCallback(
    (name: string) => {
      const result = evaluation.fields[name];
      return result && !result.valid && revealed.has(name) ? result.error : null;
    },
    [evaluation, revealed],
  );

  const summaryErrors = useMemo(
    () => (submitCount === 0 ? [] : evaluation.errors.filter((e) => revealed.has(e.name))),
    [submitCount, evaluation, revealed],
  );

  return {
    values,
    evaluation,
    canSubmit: evaluation.canSubmit,
    showFormError: evaluation.showFormError,
    errorFor,
    setValue,
    blur,
    revealErrors,
    summaryErrors,
    submitCount,
    clear,
  };
}

import {
  fieldId,
  validateField,
  type FieldContext,
  type FieldDefinition,
  type FieldValidation,
  type FieldValue,
} from './field';

export interface FormFieldState {
  definition: FieldDefinition;
  value: FieldValue;
}

export interface FormError {
  /** The id of the element the error summary links to (the field, or a group's first input). */
  id: string;
  name: string;
  message: string;
}

export interface FormEvaluation {
  /** Per field, by name. */
  fields: Record<string, FieldValidation>;
  /** Every required field valid and non-empty, and no optional field holding an invalid value. */
  canSubmit: boolean;
  /** The page-level form error: the first input has a value but the form is not yet valid. */
  showFormError: boolean;
  /** Invalid fields in form order, for an error summary. */
  errors: FormError[];
}

/**
 * Submit is enabled only when every required input is valid and non-empty. Optional inputs may stay
 * empty but must not hold an invalid value (an optional email typed wrong would otherwise be sent).
 */
export function canSubmit(results: readonly FieldValidation[]): boolean {
  return results.every((r) => r.valid);
}

/** Spec: the page-level error shows when the first input has a value but the form is invalid. */
export function shouldShowFormError(results: readonly FieldValidation[]): boolean {
  const first = results[0];
  return first !== undefined && !first.empty && !canSubmit(results);
}

export function evaluateForm(fields: readonly FormFieldState[], context: FieldContext = {}): FormEvaluation {
  const byName: Record<string, FieldValidation> = {};
  const ordered: FieldValidation[] = [];
  const errors: FormError[] = [];
  for (const { definition, value } of fields) {
    const result = validateField(definition, value, context);
    byName[definition.name] = result;
    ordered.push(result);
    if (!result.valid && result.error !== null) {
      errors.push({ id: fieldId(definition), name: definition.name, message: result.error });
    }
  }
  return {
    fields: byName,
    canSubmit: canSubmit(ordered),
    showFormError: shouldShowFormError(ordered),
    errors,
  };
}

import { isValidDateOfBirth } from './date-of-birth';
import {
  checkNewPassword,
  isValidEmail,
  isValidPolicyNumber,
  isValidPostcode,
  type PasswordRuleSettings,
} from '@portal/contracts/field-rules';
import { LANDLINE_CODE_LENGTH, MOBILE_CODE_LENGTH } from './challenge-code';

/** Spec defaults for a field definition that leaves them out. */
export const DEFAULT_ERROR_TEXT = 'Error';
export const DEFAULT_LABEL = 'Label';

interface FieldOption {
  id?: string;
  label: string;
  value: string;
  hint?: string;
}

/**
 * A form field definition as content supplies it. Declared here rather than imported so validation does
 * not depend on the content contract's zod schema; it is structurally compatible with the contract's
 * `FormField` (packages/contracts/src/content.ts), so a `FormField` can be passed as it is.
 */
export interface FieldDefinition {
  id?: string;
  name: string;
  /** dob, password, newPassword, email, postcode, checkbox, radio, policyNumber, mobileCode, landlineCode, text, ... */
  type: string;
  label?: string;
  subLabel?: string;
  tooltip?: string;
  placeholder?: string;
  errorMessage?: string;
  /** Shown for a required field left empty; falls back to errorMessage. */
  requiredMessage?: string;
  required?: boolean;
  disabled?: boolean;
  maxLength?: number;
  minLength?: number;
  /** A regular expression the whole value must match; checked only when provided. */
  pattern?: string;
  autocomplete?: string;
  /** Initial value. */
  value?: string;
  options?: readonly FieldOption[];
}

/** A single text value, a checkbox's ticked state, or the selected values of a choice group. */
export type FieldValue = string | boolean | readonly string[];

export interface FieldContext {
  /** Rules for newPassword fields (site settings' globalPasswordRequirementsBlock). */
  passwordSettings?: PasswordRuleSettings;
  /** "Today" for the date-of-birth future check. */
  today?: Date;
}

export interface FieldValidation {
  valid: boolean;
  empty: boolean;
  /** The text to show while invalid; null when valid. */
  error: string | null;
}

export function fieldId(definition: Pick<FieldDefinition, 'id' | 'name'>): string {
  return definition.id ?? definition.name;
}

export function fieldLabel(definition: Pick<FieldDefinition, 'label'>): string {
  return definition.label || DEFAULT_LABEL;
}

export function isEmptyValue(value: FieldValue): boolean {
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'string') return value.trim() === '';
  return value.length === 0;
}

/** Text inputs show their message inline; checkboxes and new passwords (which have the live list) do not. */
export function showsInlineError(type: string): boolean {
  return type !== 'checkbox' && type !== 'newPassword';
}

const compiledPatterns = new Map<string, RegExp | null>();

/** The whole value must match, as with the HTML pattern attribute. */
function matchesPattern(pattern: string, value: string): boolean {
  let regex = compiledPatterns.get(pattern);
  if (regex === undefined) {
    try {
      regex = new RegExp(`^(?:${pattern})$`, 'u');
    } catch {
      try {
        regex = new RegExp(`^(?:${pattern})$`);
      } catch {
        // The content contract rejects bad patterns; should one slip through, it must not lock customers out.
        console.warn('Ignoring an invalid field pattern from content');
        regex = null;
      }
    }
    compiledPatterns.set(pattern, regex);
  }
  return regex === null || regex.test(value);
}

function typeRuleMet(type: string, value: string, context: FieldContext): boolean {
  switch (type) {
    case 'email':
      return isValidEmail(value);
    case 'dob':
      return isValidDateOfBirth(value, context.today ? { today: context.today } : {});
    case 'postcode':
      return isValidPostcode(value);
    case 'policyNumber':
      return isValidPolicyNumber(value);
    case 'mobileCode':
      return new RegExp(`^[0-9]{${MOBILE_CODE_LENGTH}}$`).test(value);
    case 'landlineCode':
      return new RegExp(`^[0-9]{${LANDLINE_CODE_LENGTH}}$`).test(value);
    case 'newPassword':
      return checkNewPassword(value, context.passwordSettings ?? {}).valid;
    default:
      return true;
  }
}

function optionValues(definition: FieldDefinition): Set<string> | null {
  return definition.options && definition.options.length > 0
    ? new Set(definition.options.map((o) => o.value))
    : null;
}

/**
 * Validates one value against its content definition: required, then min and max length, the pattern
 * (only when provided) and the rule of its type. Empty optional fields are valid. A disabled field is
 * not submitted and so never blocks the form.
 */
export function validateField(
  definition: FieldDefinition,
  value: FieldValue,
  context: FieldContext = {},
): FieldValidation {
  const empty = isEmptyValue(value);
  const errorText = definition.errorMessage || DEFAULT_ERROR_TEXT;
  const ok: FieldValidation = { valid: true, empty, error: null };
  const fail = (error: string): FieldValidation => ({ valid: false, empty, error });

  if (definition.disabled) return ok;
  if (empty) return definition.required ? fail(definition.requiredMessage || errorText) : ok;

  if (typeof value === 'boolean') return ok;

  const allowed = optionValues(definition);
  if (typeof value !== 'string') {
    // A choice group: only offered values, and a radio group keeps a single selection.
    if (definition.type === 'radio' && value.length > 1) return fail(errorText);
    if (allowed && value.some((v) => !allowed.has(v))) return fail(errorText);
    return ok;
  }

  if ((definition.type === 'radio' || definition.type === 'select') && allowed && !allowed.has(value)) {
    return fail(errorText);
  }
  if (definition.minLength !== undefined && value.length < definition.minLength) return fail(errorText);
  if (definition.maxLength !== undefined && value.length > definition.maxLength) return fail(errorText);
  if (definition.pattern && !matchesPattern(definition.pattern, value)) return fail(errorText);
  if (!typeRuleMet(definition.type, value, context)) return fail(errorText);
  return ok;
}

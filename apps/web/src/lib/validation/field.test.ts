import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ERROR_TEXT,
  DEFAULT_LABEL,
  fieldId,
  fieldLabel,
  isEmptyValue,
  showsInlineError,
  validateField,
  type FieldDefinition,
} from './field';

const def = (overrides: Partial<FieldDefinition>): FieldDefinition => ({
  name: 'field',
  type: 'text',
  errorMessage: 'Enter a valid value',
  ...overrides,
});

describe('defaults', () => {
  it('uses "Error" and "Label" when content leaves them out', () => {
    expect(validateField({ name: 'x', type: 'text', required: true }, '')).toEqual({
      valid: false,
      empty: true,
      error: DEFAULT_ERROR_TEXT,
    });
    expect(DEFAULT_ERROR_TEXT).toBe('Error');
    expect(fieldLabel({})).toBe(DEFAULT_LABEL);
    expect(fieldLabel({ label: '' })).toBe('Label');
    expect(fieldLabel({ label: 'Email address' })).toBe('Email address');
  });

  it('takes the id, falling back to the name', () => {
    expect(fieldId({ id: 'email-input', name: 'email' })).toBe('email-input');
    expect(fieldId({ name: 'email' })).toBe('email');
  });
});

describe('required and empty', () => {
  it('fails a required empty field with the required message, else the error message', () => {
    expect(validateField(def({ required: true, requiredMessage: 'Enter your email' }), ' ').error).toBe(
      'Enter your email',
    );
    expect(validateField(def({ required: true }), '').error).toBe('Enter a valid value');
  });

  it('passes an optional empty field without running the other rules', () => {
    expect(validateField(def({ type: 'email', minLength: 5, pattern: 'x+' }), '')).toEqual({
      valid: true,
      empty: true,
      error: null,
    });
  });

  it('treats an unticked checkbox and an empty group as empty', () => {
    expect(isEmptyValue(false)).toBe(true);
    expect(isEmptyValue(true)).toBe(false);
    expect(isEmptyValue([])).toBe(true);
    expect(isEmptyValue(['a'])).toBe(false);
    expect(validateField(def({ type: 'checkbox', required: true }), false).valid).toBe(false);
    expect(validateField(def({ type: 'checkbox', required: true }), true).valid).toBe(true);
    expect(validateField(def({ type: 'checkbox' }), false).valid).toBe(true);
  });

  it('never blocks on a disabled field', () => {
    expect(validateField(def({ required: true, disabled: true }), '').valid).toBe(true);
  });
});

describe('length and pattern', () => {
  it('checks min and max length', () => {
    const d = def({ minLength: 3, maxLength: 5 });
    expect(validateField(d, 'ab').valid).toBe(false);
    expect(validateField(d, 'abc').valid).toBe(true);
    expect(validateField(d, 'abcde').valid).toBe(true);
    expect(validateField(d, 'abcdef').valid).toBe(false);
  });

  it('checks the pattern against the whole value, only when provided', () => {
    const d = def({ pattern: '[a-z]+' });
    expect(validateField(d, 'abc').valid).toBe(true);
    expect(validateField(d, 'abc1').valid).toBe(false);
    expect(validateField(def({ type: 'password' }), 'anything at all 1!').valid).toBe(true);
    expect(validateField(def({ type: 'password', pattern: '\\S{8,}' }), 'has space').valid).toBe(false);
  });

  it('ignores a pattern that is not a valid regular expression', () => {
    expect(validateField(def({ pattern: '(' }), 'abc').valid).toBe(true);
  });
});

describe('type rules', () => {
  const today = new Date(2026, 0, 10);
  it.each([
    ['email', 'jane@example.com', 'jane@'],
    ['dob', '25/11/1978', '11/01/2026'],
    ['postcode', 'SW1A 1AA', 'SW1A-1AA'],
    ['policyNumber', '123X1234567', '123X12345678'],
    ['mobileCode', '123456', '12345'],
    ['landlineCode', '12345', '123456'],
  ])('%s accepts %j and rejects %j', (type, good, bad) => {
    expect(validateField(def({ type }), good, { today })).toEqual({ valid: true, empty: false, error: null });
    expect(validateField(def({ type }), bad, { today })).toEqual({
      valid: false,
      empty: false,
      error: 'Enter a valid value',
    });
  });

  it('checks a new password against the settings rules', () => {
    const passwordSettings = { minPasswordLength: 8, uppercaseChar: true, numberChar: true };
    const d = def({ type: 'newPassword' });
    expect(validateField(d, 'Password1', { passwordSettings }).valid).toBe(true);
    expect(validateField(d, 'password1', { passwordSettings }).valid).toBe(false);
    expect(validateField(d, 'Pass word1', { passwordSettings }).valid).toBe(false);
  });

  it('restricts radio and select values to the offered options', () => {
    const options = [
      { id: '7654987', label: 'Yes', value: 'yes' },
      { id: '7654988', label: 'No', value: 'no' },
    ];
    expect(validateField(def({ type: 'radio', options }), 'yes').valid).toBe(true);
    expect(validateField(def({ type: 'radio', options }), 'maybe').valid).toBe(false);
    expect(validateField(def({ type: 'radio', options }), ['yes', 'no']).valid).toBe(false);
    expect(validateField(def({ type: 'radio', options }), ['no']).valid).toBe(true);
  });

  it('lets a checkbox group keep several offered values', () => {
    const options = [
      { id: '111', label: 'Email', value: 'email' },
      { id: '222', label: 'Phone', value: 'phone' },
      { id: '333', label: 'Post', value: 'post' },
    ];
    const d = def({ type: 'checkbox', options, required: true });
    expect(validateField(d, ['email', 'post']).valid).toBe(true);
    expect(validateField(d, []).valid).toBe(false);
    expect(validateField(d, ['fax']).valid).toBe(false);
  });
});

describe('showsInlineError', () => {
  it('is off for checkboxes and new passwords only', () => {
    expect(showsInlineError('checkbox')).toBe(false);
    expect(showsInlineError('newPassword')).toBe(false);
    for (const type of ['text', 'email', 'dob', 'password', 'postcode', 'policyNumber', 'mobileCode']) {
      expect(showsInlineError(type)).toBe(true);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { canSubmit, evaluateForm, shouldShowFormError } from './form';
import type { FieldDefinition } from './field';

const email: FieldDefinition = {
  id: 'email',
  name: 'email',
  type: 'email',
  required: true,
  errorMessage: 'Enter a valid email',
};
const dob: FieldDefinition = {
  id: 'dob',
  name: 'dob',
  type: 'dob',
  required: true,
  errorMessage: 'Enter a real date',
};
const postcode: FieldDefinition = { name: 'postcode', type: 'postcode', required: true };
const nickname: FieldDefinition = { name: 'nickname', type: 'text', maxLength: 5, errorMessage: 'Too long' };
const today = new Date(2026, 0, 10);

describe('evaluateForm', () => {
  it('enables submit only when all required inputs are valid and non-empty', () => {
    const base = [
      { definition: email, value: 'jane@example.com' },
      { definition: dob, value: '25/11/1978' },
      { definition: postcode, value: 'SW1A 1AA' },
      { definition: nickname, value: '' },
    ];
    expect(evaluateForm(base, { today }).canSubmit).toBe(true);
    expect(
      evaluateForm([...base.slice(0, 2), { definition: postcode, value: '' }, base[3]!], { today }).canSubmit,
    ).toBe(false);
    expect(
      evaluateForm([...base.slice(0, 3), { definition: nickname, value: 'toolong' }], { today }).canSubmit,
    ).toBe(false);
  });

  it('lists the invalid fields in order with the ids the error summary links to', () => {
    const result = evaluateForm(
      [
        { definition: email, value: 'jane@' },
        { definition: dob, value: '' },
        { definition: postcode, value: 'SW1A 1AA' },
      ],
      { today },
    );
    expect(result.errors).toEqual([
      { id: 'email', name: 'email', message: 'Enter a valid email' },
      { id: 'dob', name: 'dob', message: 'Enter a real date' },
    ]);
    expect(result.fields.postcode).toEqual({ valid: true, empty: false, error: null });
  });

  it('shows the page-level error only when the first input has a value and the form is invalid', () => {
    const form = (first: string, second: string) =>
      evaluateForm(
        [
          { definition: email, value: first },
          { definition: dob, value: second },
        ],
        { today },
      ).showFormError;
    expect(form('', '')).toBe(false);
    expect(form('', '25/11/1978')).toBe(false);
    expect(form('jane@', '')).toBe(true);
    expect(form('jane@example.com', '')).toBe(true);
    expect(form('jane@example.com', '25/11/1978')).toBe(false);
  });

  it('handles radio groups: one selection required and only one allowed', () => {
    const choice: FieldDefinition = {
      name: 'online',
      type: 'radio',
      required: true,
      options: [
        { label: 'Yes', value: 'yes' },
        { label: 'No', value: 'no' },
      ],
    };
    expect(evaluateForm([{ definition: choice, value: [] }]).canSubmit).toBe(false);
    expect(evaluateForm([{ definition: choice, value: ['yes'] }]).canSubmit).toBe(true);
    expect(evaluateForm([{ definition: choice, value: ['yes', 'no'] }]).canSubmit).toBe(false);
  });
});

describe('canSubmit and shouldShowFormError', () => {
  it('work on plain validation results', () => {
    const ok = { valid: true, empty: false, error: null };
    const bad = { valid: false, empty: false, error: 'Error' };
    const emptyBad = { valid: false, empty: true, error: 'Error' };
    expect(canSubmit([])).toBe(true);
    expect(canSubmit([ok, ok])).toBe(true);
    expect(canSubmit([ok, bad])).toBe(false);
    expect(shouldShowFormError([])).toBe(false);
    expect(shouldShowFormError([ok, bad])).toBe(true);
    expect(shouldShowFormError([emptyBad, bad])).toBe(false);
    expect(shouldShowFormError([bad])).toBe(true);
  });
});

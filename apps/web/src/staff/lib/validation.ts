import {
  isValidEmail,
  isValidPolicyNumber,
  isValidPostcode,
  normaliseEmail,
  normalisePolicyNumber,
  normalisePostcode,
} from '@portal/contracts/field-rules';
import { customerIdPattern } from '@portal/contracts/common';
import { validateDateOfBirth } from '../../lib/validation/date-of-birth';

/*
 * The console's field checks, on the field rules the services parse with (contracts/field-rules.ts), so
 * what the console sends is what the service accepts. Each returns an error key or null and the value as
 * it is sent.
 */

export type Check<E extends string> = { error: E; value?: undefined } | { error: null; value: string };

/** A reason: a ticket or call reference, 3 to 200 characters once trimmed (staffReason in the contract). */
export function checkReason(value: string): Check<'empty' | 'tooShort' | 'tooLong'> {
  const reason = value.trim();
  if (reason === '') return { error: 'empty' };
  if (reason.length < 3) return { error: 'tooShort' };
  if (reason.length > 200) return { error: 'tooLong' };
  return { error: null, value: reason };
}

export function checkCustomerId(value: string): Check<'empty' | 'invalid'> {
  const id = value.trim().toUpperCase();
  if (id === '') return { error: 'empty' };
  return customerIdPattern.test(id) ? { error: null, value: id } : { error: 'invalid' };
}

export function checkEmail(value: string): Check<'empty' | 'invalid'> {
  if (value.trim() === '') return { error: 'empty' };
  const email = normaliseEmail(value);
  return isValidEmail(email) ? { error: null, value: email } : { error: 'invalid' };
}

export function checkPolicyNumber(value: string): Check<'empty' | 'invalid'> {
  if (value.trim() === '') return { error: 'empty' };
  return isValidPolicyNumber(value)
    ? { error: null, value: normalisePolicyNumber(value) }
    : { error: 'invalid' };
}

export function checkSurname(value: string): Check<'empty' | 'tooLong'> {
  const surname = value.trim();
  if (surname === '') return { error: 'empty' };
  return surname.length > 100 ? { error: 'tooLong' } : { error: null, value: surname };
}

/** DD/MM/YYYY as typed; sent as YYYY-MM-DD. */
export function checkDateOfBirth(value: string, today?: Date): Check<'empty' | 'invalid' | 'future'> {
  const result = validateDateOfBirth(value, today ? { today } : {});
  if (result.valid) return { error: null, value: result.iso };
  if (result.problem === 'empty') return { error: 'empty' };
  return { error: result.problem === 'future' ? 'future' : 'invalid' };
}

export function checkPostcode(value: string): Check<'empty' | 'invalid'> {
  if (value.trim() === '') return { error: 'empty' };
  return isValidPostcode(value) ? { error: null, value: normalisePostcode(value) } : { error: 'invalid' };
}

import { describe, expect, it } from 'vitest';
import { isValidPolicyNumber, normalisePolicyNumber } from './fields';

describe('isValidPolicyNumber', () => {
  it.each(['123X1234567', '123Q12345678', '123P12345678', '000X0000000', '123x1234567', ' 123p12345678 '])(
    'accepts %j',
    (value) => {
      expect(isValidPolicyNumber(value)).toBe(true);
    },
  );

  it.each([
    ['empty', ''],
    ['X with eight digits (12 characters)', '123X12345678'],
    ['Q with seven digits (11 characters)', '123Q1234567'],
    ['P with seven digits', '123P1234567'],
    ['another letter', '123A1234567'],
    ['two leading digits', '12X1234567'],
    ['four leading digits', '1234X1234567'],
    ['a letter among the digits', '123X12345A7'],
    ['an inner space', '123 X1234567'],
    ['a hyphen', '123-X123456'],
    ['13 characters', '123Q123456789'],
    ['digits only', '12345678901'],
  ])('rejects %s', (_label, value) => {
    expect(isValidPolicyNumber(value)).toBe(false);
  });
});

describe('normalisePolicyNumber', () => {
  it('trims and upper-cases', () => {
    expect(normalisePolicyNumber(' 123q12345678 ')).toBe('123Q12345678');
  });
});

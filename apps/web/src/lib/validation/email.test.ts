import { describe, expect, it } from 'vitest';
import { EMAIL_MAX_LENGTH, isValidEmail, normaliseEmail, validateEmail } from './email';

describe('isValidEmail', () => {
  it.each([
    'jane.doe@example.co.uk',
    'j@example.com',
    'first.last+tag@sub.example.org',
    "o'brien@example.ie",
    'UPPER@EXAMPLE.COM',
    'user_name-1@my-domain.com',
    '  padded@example.com ',
  ])('accepts %s', (value) => {
    expect(isValidEmail(value)).toBe(true);
  });

  it.each([
    '',
    '   ',
    'plainaddress',
    '@example.com',
    'jane@',
    'jane@example',
    'jane@localhost',
    'jane@@example.com',
    'jane doe@example.com',
    'jane@exa mple.com',
    'jane@-example.com',
    'jane@example-.com',
    'jane@example..com',
    '.jane@example.com',
    'jane.@example.com',
    'ja..ne@example.com',
    'jane@example.c',
    'jane@example.123',
    'jane@example.com.',
    'jané@example.com',
    '<jane@example.com>',
  ])('rejects %j', (value) => {
    expect(isValidEmail(value)).toBe(false);
  });

  it('rejects a local part over 64 characters and an address over 254', () => {
    expect(isValidEmail(`${'a'.repeat(64)}@example.com`)).toBe(true);
    expect(isValidEmail(`${'a'.repeat(65)}@example.com`)).toBe(false);
    const label = 'b'.repeat(60);
    const long = `a@${label}.${label}.${label}.${label}.${label}.com`;
    expect(long.length).toBeGreaterThan(EMAIL_MAX_LENGTH);
    expect(isValidEmail(long)).toBe(false);
    expect(isValidEmail(`a@${label}.${label}.${label}.com`)).toBe(true);
  });
});

describe('validateEmail', () => {
  it('rejects an empty value by default', () => {
    expect(validateEmail('')).toBe(false);
    expect(validateEmail('  ')).toBe(false);
  });

  it('accepts an empty value for the reset field', () => {
    expect(validateEmail('', { allowEmpty: true })).toBe(true);
    expect(validateEmail('   ', { allowEmpty: true })).toBe(true);
  });

  it('still rejects a non-empty invalid value when empty is allowed', () => {
    expect(validateEmail('jane@', { allowEmpty: true })).toBe(false);
    expect(validateEmail('jane@example.com', { allowEmpty: true })).toBe(true);
  });
});

describe('normaliseEmail', () => {
  it('trims surrounding whitespace only', () => {
    expect(normaliseEmail('  Jane@Example.com \n')).toBe('Jane@Example.com');
  });
});

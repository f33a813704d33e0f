import { describe, expect, it } from 'vitest';
import { EMAIL_MAX_LENGTH, isValidEmail, normaliseEmail } from './fields';

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

describe('normaliseEmail', () => {
  it('trims surrounding whitespace only', () => {
    expect(normaliseEmail('  Jane@Example.com \n')).toBe('Jane@Example.com');
  });
});

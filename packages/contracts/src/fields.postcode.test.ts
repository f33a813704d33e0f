import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { isValidPostcode, normalisePostcode, postcodeInput, postcodeKey } from './fields';

describe('isValidPostcode', () => {
  it.each([
    'SW1A 1AA',
    'sw1a1aa',
    'M1 1AE',
    'B33 8TH',
    'CR2 6XH',
    'DN55 1PT',
    'EH1 1YZ',
    ' LS1 4AP ',
    'TR19  7AA',
  ])('accepts %j', (value) => {
    expect(isValidPostcode(value)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['spaces only', '   '],
    ['letters only', 'ABCDE'],
    ['digits only', '12345'],
    ['a hyphen', 'SW1A-1AA'],
    ['punctuation', 'SW1A 1A!'],
    ['over 8 characters', 'SW1A 1AAA'],
    ['a non-Latin letter', 'SW1Ä 1AA'],
  ])('rejects %s', (_label, value) => {
    expect(isValidPostcode(value)).toBe(false);
  });

  it('counts the space towards the 8 characters', () => {
    expect(isValidPostcode('AB12 3CD')).toBe(true);
    expect(isValidPostcode('AB12 3CDE')).toBe(false);
    expect(isValidPostcode('AB123CDE')).toBe(true);
  });
});

describe('normalisePostcode', () => {
  it('trims, collapses spaces and upper-cases', () => {
    expect(normalisePostcode('  sw1a   1aa ')).toBe('SW1A 1AA');
  });
});

describe('postcodeKey', () => {
  it('gives the same key however the customer spaces or cases the postcode', () => {
    for (const typed of ['EX39 2QQ', 'EX392QQ', ' ex39  2qq ', 'Ex39\t2Qq']) {
      expect(postcodeKey(typed), typed).toBe('EX392QQ');
    }
  });

  it('tells different postcodes apart', () => {
    expect(postcodeKey('EX39 2QQ')).not.toBe(postcodeKey('EX39 2QR'));
  });
});

describe('postcodeInput (what the services parse with)', () => {
  it('accepts exactly what the form accepts, normalised as the form sends it', () => {
    expect(z.parse(postcodeInput, '  sw1a   1aa ')).toBe('SW1A 1AA');
    for (const value of ['SW1A 1AA', 'sw1a1aa', 'B33 8TH']) {
      expect(z.safeParse(postcodeInput, value).success, value).toBe(isValidPostcode(value));
    }
    for (const value of ['SW1A-1AA', 'ABCDEFG', '12345', 'SW1A 1AAXX', '']) {
      expect(z.safeParse(postcodeInput, value).success, value).toBe(false);
      expect(isValidPostcode(value), value).toBe(false);
    }
  });
});

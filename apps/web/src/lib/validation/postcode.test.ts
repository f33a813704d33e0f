import { describe, expect, it } from 'vitest';
import { isValidPostcode, normalisePostcode } from './postcode';

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

import { describe, expect, it } from 'vitest';
import { fillPlaceholders } from './fill-placeholders';

describe('fillPlaceholders', () => {
  it('fills known placeholders, every occurrence', () => {
    expect(fillPlaceholders('Signed out in {seconds} seconds ({seconds}s)', { seconds: 45 })).toBe(
      'Signed out in 45 seconds (45s)',
    );
    expect(fillPlaceholders('{firstName} {lastName}', { firstName: 'Ann', lastName: 'Lee' })).toBe('Ann Lee');
  });

  it('leaves unknown placeholders visible', () => {
    expect(fillPlaceholders('At least {minLenght} characters', { minLength: 8 })).toBe(
      'At least {minLenght} characters',
    );
  });

  it('does not read inherited properties', () => {
    expect(fillPlaceholders('{toString}', {})).toBe('{toString}');
  });
});

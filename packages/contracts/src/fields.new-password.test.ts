import { describe, expect, it } from 'vitest';
import {
  PASSWORD_MIN_LENGTH_FLOOR,
  PASSWORD_MAX_LENGTH,
  checkNewPassword,
  minPasswordLength,
  passwordRules,
  type PasswordRuleSettings,
} from './fields';

const all: PasswordRuleSettings = {
  minPasswordLength: 10,
  lowercaseChar: true,
  uppercaseChar: true,
  numberChar: true,
  specialChar: true,
};
const none: PasswordRuleSettings = {
  minPasswordLength: 12,
  lowercaseChar: false,
  uppercaseChar: false,
  numberChar: false,
  specialChar: false,
};

const metMap = (value: string, settings: PasswordRuleSettings) =>
  Object.fromEntries(checkNewPassword(value, settings).rules.map((r) => [r.id, r.met]));

describe('passwordRules', () => {
  it('lists the switched-on rules in order with "No spaces" always last', () => {
    expect(passwordRules(all)).toEqual([
      'minLength',
      'lowercase',
      'uppercase',
      'number',
      'special',
      'noSpaces',
    ]);
    expect(passwordRules(none)).toEqual(['minLength', 'noSpaces']);
    expect(passwordRules({ ...none, numberChar: true })).toEqual(['minLength', 'number', 'noSpaces']);
  });
});

describe('minPasswordLength', () => {
  // The identity service enforces this same minimum, so the list never ticks a length it would refuse.
  it('uses the setting kept between the floor and the maximum, or the floor when it is missing', () => {
    expect(minPasswordLength({ minPasswordLength: 14 })).toBe(14);
    expect(minPasswordLength({})).toBe(PASSWORD_MIN_LENGTH_FLOOR);
    expect(minPasswordLength({ minPasswordLength: Number.NaN })).toBe(PASSWORD_MIN_LENGTH_FLOOR);
    expect(minPasswordLength({ minPasswordLength: 0 })).toBe(PASSWORD_MIN_LENGTH_FLOOR);
    expect(minPasswordLength({ minPasswordLength: 4 })).toBe(PASSWORD_MIN_LENGTH_FLOOR);
    expect(minPasswordLength({ minPasswordLength: 9.5 })).toBe(9);
    expect(minPasswordLength({ minPasswordLength: 500 })).toBe(PASSWORD_MAX_LENGTH);
  });
});

describe('checkNewPassword', () => {
  it('marks each rule separately', () => {
    expect(metMap('abc', all)).toEqual({
      minLength: false,
      lowercase: true,
      uppercase: false,
      number: false,
      special: false,
      noSpaces: true,
    });
    expect(metMap('ABCDEFGHIJ1!', all)).toEqual({
      minLength: true,
      lowercase: false,
      uppercase: true,
      number: true,
      special: true,
      noSpaces: true,
    });
  });

  it('is valid only when every switched-on rule is met', () => {
    expect(checkNewPassword('Abcdefgh1!', all).valid).toBe(true);
    expect(checkNewPassword('Abcdefgh1', all).valid).toBe(false);
    expect(checkNewPassword('abcdefghijkl', none).valid).toBe(true);
    expect(checkNewPassword('abcdefghijk', none).valid).toBe(false);
  });

  it('never accepts whitespace of any kind', () => {
    for (const value of ['Abcdefgh 1!', 'Abcdefgh\t1!', 'Abcdefgh1!\n', 'Abc\u00a0defgh1!']) {
      const check = checkNewPassword(value, all);
      expect(check.valid).toBe(false);
      expect(metMap(value, all).noSpaces).toBe(false);
    }
  });

  it('shows nothing met for an empty password', () => {
    expect(checkNewPassword('', all).rules.every((r) => !r.met)).toBe(true);
    expect(checkNewPassword('', none).valid).toBe(false);
  });

  it('counts characters rather than UTF-16 units for the minimum', () => {
    expect(metMap('😀😀😀😀😀😀😀😀😀😀😀', none).minLength).toBe(false); // 11 characters
    expect(metMap('😀😀😀😀😀😀😀😀😀😀😀😀', none).minLength).toBe(true);
  });

  it('recognises accented letters and UK symbols', () => {
    expect(metMap('É', all).uppercase).toBe(true);
    expect(metMap('é', all).lowercase).toBe(true);
    expect(metMap('£', all).special).toBe(true);
    expect(metMap('_', all).special).toBe(true);
  });

  it('rejects a password over the maximum length', () => {
    const max = `Aa1!${'x'.repeat(PASSWORD_MAX_LENGTH - 4)}`;
    expect(checkNewPassword(max, all)).toMatchObject({ valid: true, tooLong: false });
    expect(checkNewPassword(`${max}x`, all)).toMatchObject({ valid: false, tooLong: true });
  });
});

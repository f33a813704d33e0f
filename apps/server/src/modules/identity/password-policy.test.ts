import { describe, expect, it } from 'vitest';
import { dictionary } from '@zxcvbn-ts/language-common';
import { isCommonPassword, oktaPasswordPolicy, passwordProblem, rulesFromSettings } from './password-policy';

const seeded = {
  minPasswordLength: 12,
  lowercaseChar: false,
  uppercaseChar: false,
  numberChar: false,
  specialChar: false,
};
const rules = rulesFromSettings(seeded);
const login = 'margaret.thompson@example.co.uk';

describe('password rules', () => {
  it('uses the settings minimum, never below 8 and never above 128', () => {
    expect(rulesFromSettings({ ...seeded, minPasswordLength: 4 }).minLength).toBe(8);
    expect(rulesFromSettings({ ...seeded, minPasswordLength: 500 }).minLength).toBe(128);
    expect(passwordProblem('kettle-lamp', rules, login)).toBe(
      'Your password must be at least 12 characters long.',
    );
    expect(passwordProblem('kettle-lamp!', rules, login)).toBeNull();
    const eight = rulesFromSettings({ ...seeded, minPasswordLength: 8 });
    expect(passwordProblem('Zq7!kLm2', eight, login)).toBeNull();
    expect(passwordProblem('Zq7!kLm', eight, login)).toMatch(/at least 8/);
  });

  it('accepts up to 128 characters, counted as characters, and never truncates', () => {
    const longest = 'ab3-'.repeat(32);
    expect(longest).toHaveLength(128);
    expect(passwordProblem(longest, rules, login)).toBeNull();
    expect(passwordProblem(`${longest}x`, rules, login)).toBe(
      'Your password must be no more than 128 characters long.',
    );
    // Emoji are one character each, not two UTF-16 units.
    expect(passwordProblem('🔑'.repeat(12), rules, login)).toBeNull();
  });

  it('always refuses whitespace', () => {
    expect(passwordProblem('three random words', rules, login)).toBe(
      'Your password must not contain spaces.',
    );
    expect(passwordProblem('tab\tseparated-words', rules, login)).toBe(
      'Your password must not contain spaces.',
    );
  });

  it('applies each composition flag only when settings switch it on', () => {
    const base = 'harbourlights';
    expect(passwordProblem(base.toUpperCase(), rules, login)).toBeNull();
    expect(
      passwordProblem(base.toUpperCase(), rulesFromSettings({ ...seeded, lowercaseChar: true }), login),
    ).toBe('Your password must include a lower case letter.');
    expect(passwordProblem(base, rulesFromSettings({ ...seeded, uppercaseChar: true }), login)).toBe(
      'Your password must include a capital letter.',
    );
    expect(
      passwordProblem('Harbourlights', rulesFromSettings({ ...seeded, uppercaseChar: true }), login),
    ).toBeNull();
    expect(passwordProblem(base, rulesFromSettings({ ...seeded, numberChar: true }), login)).toBe(
      'Your password must include a number.',
    );
    expect(passwordProblem(`${base}4`, rulesFromSettings({ ...seeded, numberChar: true }), login)).toBeNull();
    expect(passwordProblem(base, rulesFromSettings({ ...seeded, specialChar: true }), login)).toBe(
      'Your password must include a special character, such as ! or ?.',
    );
    expect(
      passwordProblem(`${base}!`, rulesFromSettings({ ...seeded, specialChar: true }), login),
    ).toBeNull();
    const all = rulesFromSettings({
      ...seeded,
      lowercaseChar: true,
      uppercaseChar: true,
      numberChar: true,
      specialChar: true,
    });
    expect(passwordProblem('Harbour-Lights-9', all, login)).toBeNull();
  });

  it('refuses common and breached passwords from the zxcvbn-ts list, in any letter case', () => {
    const common = dictionary['passwords-common'].filter((p) => p.length >= 12 && !/\s/.test(p));
    expect(common.length).toBeGreaterThan(300);
    for (const p of common.slice(0, 50)) {
      expect(passwordProblem(p, rules, login)).toBe(
        'This password is too common or has appeared in a data breach. Choose a different one.',
      );
    }
    expect(isCommonPassword('PASSWORD1234')).toBe(true);
    expect(isCommonPassword('Quayside-Gull-Morning-3')).toBe(false);
  });

  it("refuses the email address's local part", () => {
    expect(passwordProblem('Margaret.Thompson', rules, login)).toBe(
      'Your password must not be the first part of your email address.',
    );
    expect(passwordProblem('margaret.thompson1', rules, login)).toBeNull();
  });

  it('describes the rules as an Okta password policy', () => {
    expect(
      oktaPasswordPolicy(rulesFromSettings({ ...seeded, uppercaseChar: true, specialChar: true })).complexity,
    ).toEqual({
      minLength: 12,
      maxLength: 128,
      minLowerCase: 0,
      minUpperCase: 1,
      minNumber: 0,
      minSymbol: 1,
      excludeUsername: true,
      excludeWhitespace: true,
      dictionary: { common: { exclude: true } },
    });
  });
});

import { createRequire } from 'node:module';
import type { OktaPasswordPolicy } from '@portal/contracts';
import {
  minPasswordLength,
  PASSWORD_CHARACTER_CLASSES as classes,
  PASSWORD_MAX_LENGTH,
  PASSWORD_SAME_AS_CURRENT,
  passwordLength,
} from '@portal/contracts/fields';
import type * as LanguageCommon from '@zxcvbn-ts/language-common';

/** Longest password accepted; longer ones are refused, never truncated. */
const MAX_LENGTH = PASSWORD_MAX_LENGTH;

/** The settings-driven rules (site settings' globalPasswordRequirementsBlock). */
export interface PasswordSettings {
  minPasswordLength: number;
  lowercaseChar: boolean;
  uppercaseChar: boolean;
  numberChar: boolean;
  specialChar: boolean;
}

export interface PasswordRules {
  minLength: number;
  lowercase: boolean;
  uppercase: boolean;
  number: boolean;
  special: boolean;
}

export function rulesFromSettings(settings: PasswordSettings): PasswordRules {
  return {
    minLength: minPasswordLength(settings),
    lowercase: settings.lowercaseChar === true,
    uppercase: settings.uppercaseChar === true,
    number: settings.numberChar === true,
    special: settings.specialChar === true,
  };
}

// zxcvbn-ts's list of common and breached passwords (about 49,000 entries), compared case-insensitively.
// Loaded on first use: unpacking the dictionaries costs start-up time every start would pay otherwise.
let commonPasswords: Set<string> | undefined;
const load = createRequire(import.meta.url);

export function isCommonPassword(password: string): boolean {
  commonPasswords ??= new Set(
    (load('@zxcvbn-ts/language-common') as typeof LanguageCommon).dictionary['passwords-common'].map((p) =>
      p.toLowerCase(),
    ),
  );
  return commonPasswords.has(password.toLowerCase());
}

/**
 * The first rule the password breaks, as the sentence the customer sees; null when it is acceptable.
 * `login` is the account's email: a password equal to its local part is refused.
 */
export function passwordProblem(password: string, rules: PasswordRules, login: string): string | null {
  const length = passwordLength(password);
  if (length < rules.minLength) return `Your password must be at least ${rules.minLength} characters long.`;
  if (length > MAX_LENGTH) return `Your password must be no more than ${MAX_LENGTH} characters long.`;
  if (classes.whitespace.test(password)) return 'Your password must not contain spaces.';
  if (rules.lowercase && !classes.lowercase.test(password))
    return 'Your password must include a lower case letter.';
  if (rules.uppercase && !classes.uppercase.test(password))
    return 'Your password must include a capital letter.';
  if (rules.number && !classes.number.test(password)) return 'Your password must include a number.';
  if (rules.special && !classes.special.test(password)) {
    return 'Your password must include a special character, such as ! or ?.';
  }
  const localPart = login.split('@')[0]?.toLowerCase() ?? '';
  if (localPart !== '' && password.toLowerCase() === localPart) {
    return 'Your password must not be the first part of your email address.';
  }
  if (isCommonPassword(password)) {
    return 'This password is too common or has appeared in a data breach. Choose a different one.';
  }
  return null;
}

/**
 * A password that replaces the account's current one (a change, a reset): the first rule it breaks, and
 * then that it is not the current password. `isCurrent` says whether it is (a hash check, or equality
 * with a current password just checked); it is asked only when the rules pass, as a hash check is slow.
 */
export async function newPasswordProblem(
  password: string,
  rules: PasswordRules,
  login: string,
  isCurrent: () => boolean | Promise<boolean>,
): Promise<string | null> {
  return passwordProblem(password, rules, login) ?? ((await isCurrent()) ? PASSWORD_SAME_AS_CURRENT : null);
}

/** The rules as Okta's password policy object, for PASSWORD_RESET answers. */
export function oktaPasswordPolicy(rules: PasswordRules): OktaPasswordPolicy {
  return {
    expiration: { passwordExpireDays: 0 },
    complexity: {
      minLength: rules.minLength,
      maxLength: MAX_LENGTH,
      minLowerCase: rules.lowercase ? 1 : 0,
      minUpperCase: rules.uppercase ? 1 : 0,
      minNumber: rules.number ? 1 : 0,
      minSymbol: rules.special ? 1 : 0,
      excludeUsername: true,
      excludeWhitespace: true,
      dictionary: { common: { exclude: true } },
    },
    age: { minAgeMinutes: 0, historyCount: 0 },
  };
}

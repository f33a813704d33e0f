/**
 * Rule switches from site settings (`globalPasswordRequirementsBlock`). Structurally a subset of the
 * content contract's `PasswordRequirements`, so that block can be passed as it is.
 */
export interface PasswordRuleSettings {
  minPasswordLength?: number;
  lowercaseChar?: boolean;
  uppercaseChar?: boolean;
  numberChar?: boolean;
  specialChar?: boolean;
}

/** Used when settings give no usable minimum. */
export const DEFAULT_MIN_PASSWORD_LENGTH = 8;
/** Longest password accepted; the field's maxLength, and a check for values set another way. */
export const PASSWORD_MAX_LENGTH = 128;

export type PasswordRuleId = 'minLength' | 'lowercase' | 'uppercase' | 'number' | 'special' | 'noSpaces';

/*
 * Character classes. Letters and digits are Unicode-aware so an accented capital counts as upper case;
 * "special" is anything that is neither letter, digit nor whitespace, so "£" counts on a UK keyboard.
 * The identity service enforces the same definitions on its side.
 */
export const PASSWORD_CHARACTER_CLASSES = {
  lowercase: /\p{Ll}/u,
  uppercase: /\p{Lu}/u,
  number: /\p{Nd}/u,
  special: /[^\p{L}\p{N}\s]/u,
  whitespace: /\s/u,
} as const;

export interface PasswordRuleResult {
  id: PasswordRuleId;
  met: boolean;
}

export interface NewPasswordCheck {
  /** Every rule met and not longer than PASSWORD_MAX_LENGTH. */
  valid: boolean;
  /** The rules in display order, settings rules first and "No spaces" always last. */
  rules: PasswordRuleResult[];
  tooLong: boolean;
}

/** Characters, not UTF-16 units: an emoji counts once, as the customer sees it. */
export function passwordLength(value: string): number {
  return Array.from(value).length;
}

export function minPasswordLength(settings: PasswordRuleSettings): number {
  const min = settings.minPasswordLength;
  return typeof min === 'number' && Number.isInteger(min) && min >= 1 && min <= PASSWORD_MAX_LENGTH
    ? min
    : DEFAULT_MIN_PASSWORD_LENGTH;
}

/** The rules that apply under these settings, in display order. */
export function passwordRules(settings: PasswordRuleSettings): PasswordRuleId[] {
  const rules: PasswordRuleId[] = ['minLength'];
  if (settings.lowercaseChar) rules.push('lowercase');
  if (settings.uppercaseChar) rules.push('uppercase');
  if (settings.numberChar) rules.push('number');
  if (settings.specialChar) rules.push('special');
  rules.push('noSpaces');
  return rules;
}

function ruleMet(id: PasswordRuleId, value: string, settings: PasswordRuleSettings): boolean {
  switch (id) {
    case 'minLength':
      return passwordLength(value) >= minPasswordLength(settings);
    case 'lowercase':
      return PASSWORD_CHARACTER_CLASSES.lowercase.test(value);
    case 'uppercase':
      return PASSWORD_CHARACTER_CLASSES.uppercase.test(value);
    case 'number':
      return PASSWORD_CHARACTER_CLASSES.number.test(value);
    case 'special':
      return PASSWORD_CHARACTER_CLASSES.special.test(value);
    case 'noSpaces':
      // An empty password has no spaces but has not met anything yet; the list shows it unticked.
      return value.length > 0 && !PASSWORD_CHARACTER_CLASSES.whitespace.test(value);
  }
}

/** Checks a new password against the settings' rules; the per-rule results drive the live list. */
export function checkNewPassword(value: string, settings: PasswordRuleSettings): NewPasswordCheck {
  const rules = passwordRules(settings).map((id) => ({ id, met: ruleMet(id, value, settings) }));
  const tooLong = passwordLength(value) > PASSWORD_MAX_LENGTH;
  return { valid: !tooLong && rules.every((r) => r.met), rules, tooLong };
}

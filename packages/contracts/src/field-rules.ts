/**
 * The field rules of spec §5, defined once: the web forms validate with these functions as the customer
 * types, and the server's contracts parse with schemas built from the same functions (fields.ts), so a
 * value the form accepts is never refused by the service (and the other way round). No schema is built
 * here: a page that only checks fields loads no schema library (issue 15).
 */

// ---------------------------------------------------------------------------------------------------
// Policy number: 11 to 12 characters; three digits, X, seven digits; or three digits, Q or P, eight digits.

export const POLICY_NUMBER_MIN_LENGTH = 11;
export const POLICY_NUMBER_MAX_LENGTH = 12;
export const POLICY_NUMBER_PATTERN = /^\d{3}(?:X\d{7}|[QP]\d{8})$/;

/** Customers copy numbers from letters in any case and with stray spaces around them. */
export function normalisePolicyNumber(value: string): string {
  return value.trim().toUpperCase();
}

export function isValidPolicyNumber(value: string): boolean {
  return POLICY_NUMBER_PATTERN.test(normalisePolicyNumber(value));
}

// ---------------------------------------------------------------------------------------------------
// Postcode: letters, digits and spaces, at least one letter and one digit, at most 8 characters.

/** The longest UK postcode with its space ("SW1A 1AA"). */
export const POSTCODE_MAX_LENGTH = 8;

/** Upper case, trimmed, runs of spaces collapsed: the form the registration service matches on. */
export function normalisePostcode(value: string): string {
  return value.trim().replace(/\s+/g, ' ').toUpperCase();
}

/**
 * How two postcodes are compared: upper case with no spaces at all, so `EX392QQ` matches `EX39 2QQ` however
 * the customer spaced it. The customer table's generated `post_code_normalised` column holds the same key.
 */
export function postcodeKey(value: string): string {
  return normalisePostcode(value).replace(/ /g, '');
}

/** Judged on the normalised value, so stray outer or doubled spaces do not fail a good postcode. */
export function isValidPostcode(value: string): boolean {
  const postcode = normalisePostcode(value);
  return (
    postcode.length > 0 &&
    postcode.length <= POSTCODE_MAX_LENGTH &&
    /^[A-Z0-9 ]+$/.test(postcode) &&
    /[A-Z]/.test(postcode) &&
    /\d/.test(postcode)
  );
}

// ---------------------------------------------------------------------------------------------------
// Email: the standard address pattern.

/** Longest address SMTP can carry (RFC 5321 path limit less the angle brackets). */
export const EMAIL_MAX_LENGTH = 254;
const LOCAL_PART_MAX_LENGTH = 64;

/*
 * The WHATWG `input[type=email]` pattern, tightened to require a dotted domain with an alphabetic
 * top-level label: `name@localhost` is syntactically valid but never a customer's address.
 */
const EMAIL_PATTERN =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.[A-Za-z]{2,63}$/;

/** Phone keyboards and autofill often add a trailing space; the address itself never has one. */
export function normaliseEmail(value: string): string {
  return value.trim();
}

/** True when the (trimmed) value is a plausible email address. */
export function isValidEmail(value: string): boolean {
  const email = normaliseEmail(value);
  if (email.length === 0 || email.length > EMAIL_MAX_LENGTH) return false;
  const at = email.lastIndexOf('@');
  if (at > LOCAL_PART_MAX_LENGTH) return false;
  const local = email.slice(0, at);
  // Dots may separate but not start, end or double up in the local part.
  if (local.startsWith('.') || local.endsWith('.') || local.includes('..')) return false;
  return EMAIL_PATTERN.test(email);
}

// ---------------------------------------------------------------------------------------------------
// Date of birth: typed DD/MM/YYYY, a real date not in the future, sent as YYYY-MM-DD.

/** Earliest year accepted: anyone born before it is certainly a typing slip. */
export const EARLIEST_BIRTH_YEAR = 1900;

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * True for YYYY-MM-DD naming a real calendar date from EARLIEST_BIRTH_YEAR up to `today` (YYYY-MM-DD,
 * the caller's today: the browser's on the form, the server clock's on the service).
 */
export function isValidIsoDateOfBirth(value: string, today: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < EARLIEST_BIRTH_YEAR || month < 1 || month > 12) return false;
  if (day < 1 || day > daysInMonth(year, month)) return false;
  return value <= today;
}

// ---------------------------------------------------------------------------------------------------
// New password: rules switched on by site settings (globalPasswordRequirementsBlock), "No spaces" always.

/** Never accepted below this, whatever the settings say (NIST 800-63B). */
export const PASSWORD_MIN_LENGTH_FLOOR = 8;
/** Longest password accepted; longer ones are refused, never truncated. */
export const PASSWORD_MAX_LENGTH = 128;

/**
 * The identity service's refusal (errorCauses) of a new password that is the account's current one, on a
 * change or a reset. The web recognises it to show the page's own text for it (content).
 */
export const PASSWORD_SAME_AS_CURRENT = 'Your new password must be different from your current password.';

/** Structurally a subset of the content contract's password requirements block. */
export interface PasswordRuleSettings {
  minPasswordLength?: number;
  lowercaseChar?: boolean;
  uppercaseChar?: boolean;
  numberChar?: boolean;
  specialChar?: boolean;
}

export type PasswordRuleId = 'minLength' | 'lowercase' | 'uppercase' | 'number' | 'special' | 'noSpaces';

/*
 * Character classes. Letters and digits are Unicode-aware so an accented capital counts as upper case;
 * "special" is anything that is neither letter, digit nor whitespace, so "£" counts on a UK keyboard.
 */
export const PASSWORD_CHARACTER_CLASSES = {
  lowercase: /\p{Ll}/u,
  uppercase: /\p{Lu}/u,
  number: /\p{Nd}/u,
  special: /[^\p{L}\p{Nd}\s]/u,
  whitespace: /\s/u,
} as const;

/** Characters, not UTF-16 units: an emoji counts once, as the customer sees it. */
export function passwordLength(value: string): number {
  return Array.from(value).length;
}

/** The configured minimum, kept between the floor and the maximum (the floor when not a number). */
export function minPasswordLength(settings: PasswordRuleSettings): number {
  const min = settings.minPasswordLength;
  if (typeof min !== 'number' || !Number.isFinite(min)) return PASSWORD_MIN_LENGTH_FLOOR;
  return Math.min(PASSWORD_MAX_LENGTH, Math.max(PASSWORD_MIN_LENGTH_FLOOR, Math.trunc(min)));
}

/** The rules that apply under these settings, in display order ("No spaces" always last). */
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
    case 'uppercase':
    case 'number':
    case 'special':
      return PASSWORD_CHARACTER_CLASSES[id].test(value);
    case 'noSpaces':
      // An empty password has no spaces but has not met anything yet; the list shows it unticked.
      return value.length > 0 && !PASSWORD_CHARACTER_CLASSES.whitespace.test(value);
  }
}

export interface NewPasswordCheck {
  /** Every rule met and not longer than PASSWORD_MAX_LENGTH. */
  valid: boolean;
  /** The rules in display order, with whether each is met (the form's live list). */
  rules: Array<{ id: PasswordRuleId; met: boolean }>;
  tooLong: boolean;
}

/** Checks a new password against the settings' rules (the service adds its own checks: common passwords). */
export function checkNewPassword(value: string, settings: PasswordRuleSettings): NewPasswordCheck {
  const rules = passwordRules(settings).map((id) => ({ id, met: ruleMet(id, value, settings) }));
  const tooLong = passwordLength(value) > PASSWORD_MAX_LENGTH;
  return { valid: !tooLong && rules.every((r) => r.met), rules, tooLong };
}

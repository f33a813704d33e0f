/** Longest address SMTP can carry (RFC 5321 path limit less the angle brackets). */
export const EMAIL_MAX_LENGTH = 254;
const LOCAL_PART_MAX_LENGTH = 64;

/*
 * The WHATWG `input[type=email]` pattern, tightened to require a dotted domain with an alphabetic
 * top-level label: `name@localhost` is syntactically valid but never a customer's address, and
 * letting it through would only fail later at the registration service.
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

export interface EmailValidationOptions {
  /** The reset-password field accepts an empty value (spec section 5). */
  allowEmpty?: boolean;
}

export function validateEmail(value: string, options: EmailValidationOptions = {}): boolean {
  if (normaliseEmail(value) === '') return options.allowEmpty === true;
  return isValidEmail(value);
}

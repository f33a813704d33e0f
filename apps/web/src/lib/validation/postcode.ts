/** The longest UK postcode with its space ("SW1A 1AA"). */
export const POSTCODE_MAX_LENGTH = 8;
/** The input itself allows more so a customer sees an error rather than silently cut text (spec: field max 50). */
export const POSTCODE_FIELD_MAX_LENGTH = 50;

/** Upper case, trimmed, runs of spaces collapsed: the form the registration service receives. */
export function normalisePostcode(value: string): string {
  return value.trim().replace(/\s+/g, ' ').toUpperCase();
}

/**
 * Letters, digits and spaces, at least one letter and one digit, at most 8 characters (spec section 5),
 * judged on the normalised value so stray outer or doubled spaces do not fail a good postcode.
 */
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

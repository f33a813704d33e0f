export const POLICY_NUMBER_MIN_LENGTH = 11;
export const POLICY_NUMBER_MAX_LENGTH = 12;

/** Three digits then X and seven digits (11 characters), or Q or P and eight digits (12 characters). */
const POLICY_NUMBER_PATTERN = /^\d{3}(?:X\d{7}|[QP]\d{8})$/;

/** Customers copy numbers from letters in any case and with stray spaces around them. */
export function normalisePolicyNumber(value: string): string {
  return value.trim().toUpperCase();
}

export function isValidPolicyNumber(value: string): boolean {
  return POLICY_NUMBER_PATTERN.test(normalisePolicyNumber(value));
}

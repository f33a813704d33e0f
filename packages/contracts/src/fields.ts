import { z } from 'zod/mini';
import {
  POLICY_NUMBER_PATTERN,
  isValidEmail,
  isValidIsoDateOfBirth,
  isValidPostcode,
  normaliseEmail,
  normalisePolicyNumber,
  normalisePostcode,
} from './field-rules';

/**
 * The schemas of the field rules (field-rules.ts), for the services' contracts. The rules themselves are
 * re-exported, so this module offers both; the SPA imports the rules from field-rules.ts.
 */

export * from './field-rules';

/** A policy number exactly as stored and as it appears in paths and `?id=`. */
export const policyNumber = z.string().check(z.regex(POLICY_NUMBER_PATTERN, 'Enter a valid policy number'));

/** What a customer types: normalised, then the same rule. */
export const policyNumberInput = z
  .string()
  .check(z.overwrite(normalisePolicyNumber), z.regex(POLICY_NUMBER_PATTERN, 'Enter a valid policy number'));

export const postcodeInput = z
  .string()
  .check(z.overwrite(normalisePostcode), z.refine(isValidPostcode, 'Enter a valid postcode'));

export const emailInput = z
  .string()
  .check(z.overwrite(normaliseEmail), z.refine(isValidEmail, 'Enter a valid email address'));

/**
 * What the services parse: YYYY-MM-DD naming a real date from EARLIEST_BIRTH_YEAR. Not in the future is
 * checked by the service against its own clock.
 */
export const dateOfBirthInput = z
  .string()
  .check(
    z.refine(
      (value: string) => isValidIsoDateOfBirth(value, '9999-12-31'),
      'Enter a real date of birth as YYYY-MM-DD',
    ),
  );

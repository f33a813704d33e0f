import { daysInMonth, EARLIEST_BIRTH_YEAR } from '@portal/contracts/field-rules';

/** DD/MM/YYYY. */
const DATE_OF_BIRTH_LENGTH = 10;

const DISPLAY_PATTERN = /^(\d{2})\/(\d{2})\/(\d{4})$/;
const ISO_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The typing helper for the DD/MM/YYYY field. Given what the input now holds (`raw`) and what it held
 * before (`previous`), returns what it should hold:
 * - only digits and slashes survive (other separators typed or pasted, such as `-`, `.` or a space,
 *   become slashes);
 * - while adding, a slash follows a complete day and month, a one-digit day or month followed by a slash
 *   is padded (`3/` -> `03/`), doubled slashes and slashes in the year are dropped, and the value stops
 *   at 10 characters;
 * - while deleting, nothing is added back, so Backspace over an auto-inserted slash removes it;
 * - an ISO date (`1978-11-25`, which some autofill sends) becomes `25/11/1978`.
 */
export function formatDateOfBirthInput(raw: string, previous = ''): string {
  const trimmed = raw.trim();
  const fromIso = fromIsoDate(trimmed);
  if (fromIso !== null) return fromIso;

  const sanitised = trimmed.replace(/[-.\s]+/g, '/').replace(/[^\d/]/g, '');
  if (raw.length < previous.length) return sanitised.slice(0, DATE_OF_BIRTH_LENGTH);

  let out = '';
  let segment = 0; // 0 day, 1 month, 2 year
  let segmentLength = 0;
  for (const ch of sanitised) {
    if (ch === '/') {
      if (segment >= 2 || segmentLength === 0) continue;
      if (segmentLength === 1) out = `${out.slice(0, -1)}0${out.slice(-1)}`;
      out += '/';
      segment += 1;
      segmentLength = 0;
      continue;
    }
    if (segment < 2 && segmentLength === 2) {
      out += '/';
      segment += 1;
      segmentLength = 0;
    }
    if (segment === 2 && segmentLength === 4) break;
    out += ch;
    segmentLength += 1;
  }
  if (segment < 2 && segmentLength === 2) out += '/';
  return out.slice(0, DATE_OF_BIRTH_LENGTH);
}

function isRealDate(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** `'25/11/1978'` -> `'1978-11-25'`; null when the value is not a real DD/MM/YYYY date. */
export function toIsoDate(value: string): string | null {
  const match = DISPLAY_PATTERN.exec(value.trim());
  if (!match) return null;
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (!isRealDate(year, month, day)) return null;
  return `${match[3]}-${match[2]}-${match[1]}`;
}

/** `'1978-11-25'` -> `'25/11/1978'`; null when the value is not a real ISO calendar date. */
export function fromIsoDate(value: string): string | null {
  const match = ISO_PATTERN.exec(value.trim());
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (!isRealDate(year, month, day)) return null;
  return `${match[3]}/${match[2]}/${match[1]}`;
}

type DateOfBirthProblem = 'empty' | 'format' | 'not-a-date' | 'future' | 'too-early';
export type DateOfBirthResult = { valid: true; iso: string } | { valid: false; problem: DateOfBirthProblem };

export interface DateOfBirthOptions {
  /** Today's date (the customer's local calendar day); tests pin it. Defaults to now. */
  today?: Date;
  /** Defaults to EARLIEST_BIRTH_YEAR. */
  earliestYear?: number;
}

/** A real DD/MM/YYYY date, not in the future and not before the earliest year; valid results carry the ISO form. */
export function validateDateOfBirth(value: string, options: DateOfBirthOptions = {}): DateOfBirthResult {
  const trimmed = value.trim();
  if (trimmed === '') return { valid: false, problem: 'empty' };
  if (!DISPLAY_PATTERN.test(trimmed)) return { valid: false, problem: 'format' };
  const iso = toIsoDate(trimmed);
  if (iso === null) return { valid: false, problem: 'not-a-date' };
  if (Number(iso.slice(0, 4)) < (options.earliestYear ?? EARLIEST_BIRTH_YEAR)) {
    return { valid: false, problem: 'too-early' };
  }
  const today = options.today ?? new Date();
  const todayIso = `${pad(today.getFullYear(), 4)}-${pad(today.getMonth() + 1, 2)}-${pad(today.getDate(), 2)}`;
  // Zero-padded ISO dates order the same as strings and as dates.
  if (iso > todayIso) return { valid: false, problem: 'future' };
  return { valid: true, iso };
}

export function isValidDateOfBirth(value: string, options: DateOfBirthOptions = {}): boolean {
  return validateDateOfBirth(value, options).valid;
}

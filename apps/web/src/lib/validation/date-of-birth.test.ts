import { daysInMonth, isLeapYear } from '@portal/contracts/field-rules';
import { describe, expect, it } from 'vitest';
import {
  formatDateOfBirthInput,
  fromIsoDate,
  isValidDateOfBirth,
  toIsoDate,
  validateDateOfBirth,
} from './date-of-birth';

/** Types `text` one character at a time through the helper, as the field does. */
function typeInto(text: string, start = ''): string {
  let value = start;
  for (const ch of text) value = formatDateOfBirthInput(value + ch, value);
  return value;
}

/** Presses Backspace `times` times at the end of the value. */
function backspace(value: string, times: number): string {
  let current = value;
  for (let i = 0; i < times; i += 1) current = formatDateOfBirthInput(current.slice(0, -1), current);
  return current;
}

describe('formatDateOfBirthInput: typing', () => {
  it('inserts the slash after the day and after the month', () => {
    expect(typeInto('2')).toBe('2');
    expect(typeInto('25')).toBe('25/');
    expect(typeInto('251')).toBe('25/1');
    expect(typeInto('2511')).toBe('25/11/');
    expect(typeInto('25111978')).toBe('25/11/1978');
  });

  it('stops at 10 characters', () => {
    expect(typeInto('2511197812')).toBe('25/11/1978');
    expect(formatDateOfBirthInput('25/11/19789', '25/11/1978')).toBe('25/11/1978');
  });

  it('drops letters and other characters', () => {
    expect(typeInto('2a5b/1x1')).toBe('25/11/');
    expect(formatDateOfBirthInput('25/11/19a', '25/11/19')).toBe('25/11/19');
    expect(typeInto('!')).toBe('');
  });

  it('does not double a slash the user types after an auto-inserted one', () => {
    expect(typeInto('25/11/1978')).toBe('25/11/1978');
    expect(formatDateOfBirthInput('25//', '25/')).toBe('25/');
  });

  it('pads a one-digit day or month when the user types the slash', () => {
    expect(typeInto('3/')).toBe('03/');
    expect(typeInto('3/4/1978')).toBe('03/04/1978');
  });

  it('ignores a leading slash and slashes in the year', () => {
    expect(typeInto('/2')).toBe('2');
    expect(typeInto('25111/9')).toBe('25/11/19');
  });

  it('turns other separators into slashes and reformats a pasted date', () => {
    expect(formatDateOfBirthInput('25-11-1978', '')).toBe('25/11/1978');
    expect(formatDateOfBirthInput('25.11.1978', '')).toBe('25/11/1978');
    expect(formatDateOfBirthInput('25 11 1978', '')).toBe('25/11/1978');
    expect(formatDateOfBirthInput('25111978', '')).toBe('25/11/1978');
  });

  it('converts an autofilled ISO date', () => {
    expect(formatDateOfBirthInput('1978-11-25', '')).toBe('25/11/1978');
    // Not a real date, so it is not treated as ISO and the result fails validation.
    expect(validateDateOfBirth(formatDateOfBirthInput('1978-02-30', '')).valid).toBe(false);
  });
});

describe('formatDateOfBirthInput: deleting', () => {
  it('removes an auto-inserted slash instead of putting it back', () => {
    expect(backspace('25/', 1)).toBe('25');
    expect(backspace('25/11/', 1)).toBe('25/11');
    expect(backspace('25/11/1978', 5)).toBe('25/11');
    expect(backspace('25/11/1978', 10)).toBe('');
  });

  it('lets typing resume normally after deleting', () => {
    expect(typeInto('1', backspace('25/', 1))).toBe('25/1');
  });

  it('keeps a middle deletion as typed, without re-padding', () => {
    expect(formatDateOfBirthInput('25/1/1978', '25/11/1978')).toBe('25/1/1978');
  });
});

describe('calendar helpers', () => {
  it('knows leap years', () => {
    expect(isLeapYear(2024)).toBe(true);
    expect(isLeapYear(2023)).toBe(false);
    expect(isLeapYear(1900)).toBe(false);
    expect(isLeapYear(2000)).toBe(true);
  });

  it('knows month lengths', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((m) => daysInMonth(2023, m))).toEqual([
      31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
    ]);
    expect(daysInMonth(2024, 2)).toBe(29);
  });
});

describe('toIsoDate and fromIsoDate', () => {
  it('converts DD/MM/YYYY to YYYY-MM-DD', () => {
    expect(toIsoDate('25/11/1978')).toBe('1978-11-25');
    expect(toIsoDate('01/02/2000')).toBe('2000-02-01');
    expect(toIsoDate(' 29/02/2000 ')).toBe('2000-02-29');
  });

  it('returns null for anything that is not a real date', () => {
    expect(toIsoDate('29/02/1999')).toBeNull();
    expect(toIsoDate('31/04/1990')).toBeNull();
    expect(toIsoDate('00/01/1990')).toBeNull();
    expect(toIsoDate('10/13/1990')).toBeNull();
    expect(toIsoDate('1/2/1990')).toBeNull();
    expect(toIsoDate('1990-02-01')).toBeNull();
    expect(toIsoDate('')).toBeNull();
  });

  it('converts YYYY-MM-DD back for display', () => {
    expect(fromIsoDate('1978-11-25')).toBe('25/11/1978');
    expect(fromIsoDate('1978-02-30')).toBeNull();
    expect(fromIsoDate('25/11/1978')).toBeNull();
  });
});

describe('validateDateOfBirth', () => {
  const today = new Date(2026, 4, 15); // 15 May 2026, local time

  it('accepts a real past date and gives its ISO form', () => {
    expect(validateDateOfBirth('25/11/1978', { today })).toEqual({ valid: true, iso: '1978-11-25' });
  });

  it('accepts 29 February only in leap years', () => {
    expect(validateDateOfBirth('29/02/1980', { today }).valid).toBe(true);
    expect(validateDateOfBirth('29/02/2000', { today }).valid).toBe(true);
    expect(validateDateOfBirth('29/02/1900', { today, earliestYear: 1800 })).toEqual({
      valid: false,
      problem: 'not-a-date',
    });
    expect(validateDateOfBirth('29/02/1981', { today })).toEqual({ valid: false, problem: 'not-a-date' });
  });

  it('rejects impossible days and months', () => {
    for (const value of ['32/01/1980', '31/06/1980', '00/06/1980', '15/00/1980', '15/13/1980']) {
      expect(validateDateOfBirth(value, { today })).toEqual({ valid: false, problem: 'not-a-date' });
    }
  });

  it('accepts today and rejects tomorrow', () => {
    expect(validateDateOfBirth('15/05/2026', { today }).valid).toBe(true);
    expect(validateDateOfBirth('16/05/2026', { today })).toEqual({ valid: false, problem: 'future' });
    expect(validateDateOfBirth('01/01/2027', { today })).toEqual({ valid: false, problem: 'future' });
  });

  it('rejects years before the earliest year', () => {
    expect(validateDateOfBirth('31/12/1899', { today })).toEqual({ valid: false, problem: 'too-early' });
    expect(validateDateOfBirth('01/01/1900', { today }).valid).toBe(true);
    expect(validateDateOfBirth('01/01/1920', { today, earliestYear: 1925 }).valid).toBe(false);
  });

  it('reports empty and badly formatted values', () => {
    expect(validateDateOfBirth('', { today })).toEqual({ valid: false, problem: 'empty' });
    expect(validateDateOfBirth('   ', { today })).toEqual({ valid: false, problem: 'empty' });
    for (const value of ['25/11/78', '25/11', '25111978', '25-11-1978', '2/11/1978', 'ab/cd/efgh']) {
      expect(validateDateOfBirth(value, { today })).toEqual({ valid: false, problem: 'format' });
    }
  });

  it('uses the current date when no today is given', () => {
    expect(isValidDateOfBirth('01/01/1990')).toBe(true);
    expect(isValidDateOfBirth(`01/01/${new Date().getFullYear() + 1}`)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { formatPasswordDate } from './password-date';

describe('password last updated (spec §3)', () => {
  it('reads like "3rd March 2024 2:05pm" in UK time', () => {
    expect(formatPasswordDate('2024-03-03T14:05:00Z')).toBe('3rd March 2024 2:05pm');
    expect(formatPasswordDate('2024-07-21T08:30:00Z')).toBe('21st July 2024 9:30am');
    expect(formatPasswordDate('2024-11-12T00:07:00Z')).toBe('12th November 2024 12:07am');
    expect(formatPasswordDate('2024-12-22T12:00:00Z')).toBe('22nd December 2024 12:00pm');
  });

  it('is null for a missing or invalid date', () => {
    expect(formatPasswordDate(null)).toBeNull();
    expect(formatPasswordDate('yesterday')).toBeNull();
  });
});

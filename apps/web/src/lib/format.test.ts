import { describe, expect, it } from 'vitest';
import { formatGbp, formatLongDate } from './format';

describe('formatGbp', () => {
  it('shows pence only when there are some', () => {
    expect(formatGbp(389)).toBe('£389');
    expect(formatGbp(612.4)).toBe('£612.40');
    expect(formatGbp(1875.2)).toBe('£1,875.20');
    expect(formatGbp(0)).toBe('£0');
    expect(formatGbp(48.05)).toBe('£48.05');
  });
});

describe('formatLongDate', () => {
  it('writes a calendar date out in full, whatever the time zone', () => {
    expect(formatLongDate('2027-03-01')).toBe('1 March 2027');
    expect(formatLongDate('not a date')).toBe('not a date');
  });
});

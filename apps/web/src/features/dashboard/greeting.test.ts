import { describe, expect, it } from 'vitest';
import { greetingFor, timeOfDayGreeting } from './greeting';

const at = (hh: number, mm = 0) => new Date(2026, 10, 24, hh, mm);

describe('the greeting', () => {
  it('follows the time of day', () => {
    expect(timeOfDayGreeting(at(0))).toBe('Good morning');
    expect(timeOfDayGreeting(at(11, 59))).toBe('Good morning');
    expect(timeOfDayGreeting(at(12))).toBe('Good afternoon');
    expect(timeOfDayGreeting(at(17, 59))).toBe('Good afternoon');
    expect(timeOfDayGreeting(at(18))).toBe('Good evening');
  });

  it('adds first and last name only when the profile has both', () => {
    expect(greetingFor(at(9), { firstName: 'Helen', lastName: 'Dawson' })).toBe('Good morning Helen Dawson');
    expect(greetingFor(at(9), { firstName: 'Helen', lastName: '' })).toBe('Good morning');
    expect(greetingFor(at(20), null)).toBe('Good evening');
  });
});

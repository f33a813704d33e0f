import type { CustomerProfile } from '@portal/contracts/profile';

/** Spec customer-data §1: "Good morning" before 12:00, "Good afternoon" before 18:00, else "Good evening". */
export function timeOfDayGreeting(now: Date): string {
  const hour = now.getHours();
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}

/** The greeting, followed by first and last name only when the profile has both. */
export function greetingFor(
  now: Date,
  profile: Pick<CustomerProfile, 'firstName' | 'lastName'> | null,
): string {
  const first = profile?.firstName.trim() ?? '';
  const last = profile?.lastName.trim() ?? '';
  return first && last ? `${timeOfDayGreeting(now)} ${first} ${last}` : timeOfDayGreeting(now);
}

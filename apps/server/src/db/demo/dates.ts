/** Date arithmetic on YYYY-MM-DD days (UTC), for dating the demo data from today. */

/** The day `months` months on (on `day` of that month when given). */
export const addMonths = (iso: string, months: number, day?: number): string => {
  const d = new Date(`${iso}T00:00:00Z`);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, day ?? d.getUTCDate()));
  return target.toISOString().slice(0, 10);
};

/** The day `days` days on. */
export const addDays = (iso: string, days: number): string =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + days * 864e5).toISOString().slice(0, 10);

/** "November 2026". */
export const monthName = (iso: string): string =>
  new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${iso}T00:00:00Z`),
  );

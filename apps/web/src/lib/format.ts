/** Pounds sterling with no pence when whole and two places otherwise (spec customer-data §9). */
export function formatGbp(value: number): string {
  return new Intl.NumberFormat('en-GB', {
    style: 'currency',
    currency: 'GBP',
    minimumFractionDigits: Number.isInteger(value) ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(value);
}

/** A YYYY-MM-DD date as "1 March 2027" (a calendar date: no time zone shifts it). */
export function formatLongDate(isoDate: string): string {
  const time = Date.parse(`${isoDate.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(time)) return isoDate;
  return new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(time);
}

/** "2:05pm", in UK time. */
export function formatUkTime(iso: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/London',
      hour: 'numeric',
      minute: '2-digit',
      hourCycle: 'h12',
    })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  const period = String(parts['dayPeriod'] ?? '')
    .toLowerCase()
    .replace(/[.\s]/g, '');
  return `${Number(parts['hour'])}:${parts['minute']}${period}`;
}

import { formatLongDate } from '../../lib/format';

const UK = 'Europe/London';

/** "7 December 2026 at 2:05pm", in UK time (from its parts: ICU versions differ in their joins). */
export function ukDateTime(iso: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: UK,
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      hourCycle: 'h12',
    })
      .formatToParts(time)
      .map((p) => [p.type, p.value]),
  );
  const period = String(parts['dayPeriod'] ?? '')
    .toLowerCase()
    .replace(/[.\s]/g, '');
  return `${parts['day']} ${parts['month']} ${parts['year']} at ${Number(parts['hour'])}:${parts['minute']}${period}`;
}

/** A calendar date (YYYY-MM-DD) as "25 November 1978". */
export const longDate = formatLongDate;

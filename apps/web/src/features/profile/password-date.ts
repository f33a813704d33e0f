/** 1st, 2nd, 3rd, 4th ... 11th, 12th, 13th ... 21st, 22nd, 23rd ... 31st. */
function ordinal(day: number): string {
  const teen = day % 100 >= 11 && day % 100 <= 13;
  const suffix = teen ? 'th' : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[day % 10] ?? 'th');
  return `${day}${suffix}`;
}

/**
 * Spec §3 passwordLastUpdatedFormatted: "3rd March 2024 2:05pm", in UK time. null for a missing or invalid
 * date (the block then says it cannot read it).
 */
export function formatPasswordDate(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return null;
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/London',
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
    .replace(/\./g, '')
    .replace(/\s/g, '');
  return `${ordinal(Number(parts['day']))} ${parts['month']} ${parts['year']} ${Number(parts['hour'])}:${parts['minute']}${period}`;
}

const ukDate = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'Europe/London',
});

/** The day a message was received, in the UK ("19 November 2026"), from the instant the service gives. */
export function receivedDate(instant: string): string {
  const time = Date.parse(instant);
  return Number.isNaN(time) ? instant : ukDate.format(time);
}

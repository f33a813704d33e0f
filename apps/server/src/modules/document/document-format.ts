// Made once: an Intl formatter is costly to build, and a PDF formats many dates and amounts.
const wholePounds = new Intl.NumberFormat('en-GB', {
  style: 'currency',
  currency: 'GBP',
  minimumFractionDigits: 0,
});
const poundsAndPence = new Intl.NumberFormat('en-GB', {
  style: 'currency',
  currency: 'GBP',
  minimumFractionDigits: 2,
});
const longDateFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

/** Pounds sterling on documents: no pence when whole, two places otherwise (spec customer-data §9). */
export const pounds = (value: number) =>
  (Number.isInteger(value) ? wholePounds : poundsAndPence).format(value);

/** A YYYY-MM-DD date as "1 March 2027". */
export const longDate = (iso: string) => longDateFormat.format(new Date(`${iso}T00:00:00Z`));

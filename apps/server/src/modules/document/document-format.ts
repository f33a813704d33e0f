/** Pounds sterling on documents: no pence when whole, two places otherwise (spec customer-data §9). */
export const pounds = (value: number) =>
  new Intl.NumberFormat('en-GB', {
    style: 'currency',
    currency: 'GBP',
    minimumFractionDigits: Number.isInteger(value) ? 0 : 2,
  }).format(value);

/** A YYYY-MM-DD date as "1 March 2027". */
export const longDate = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${iso}T00:00:00Z`));

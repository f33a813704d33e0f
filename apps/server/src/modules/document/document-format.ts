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

/**
 * Each formatted once: formatting with Intl costs microseconds, and a kept PDF's content (its key) is
 * built again for every download (pdf-renditions.ts), from the same few dates and amounts.
 */
function remembered<K, V>(format: (value: K) => V, most = 5000): (value: K) => V {
  const known = new Map<K, V>();
  return (value) => {
    let text = known.get(value);
    if (text === undefined) {
      text = format(value);
      if (known.size >= most) known.clear();
      known.set(value, text);
    }
    return text;
  };
}

/** Pounds sterling on documents: no pence when whole, two places otherwise (spec customer-data §9). */
export const pounds = remembered((value: number) =>
  (Number.isInteger(value) ? wholePounds : poundsAndPence).format(value),
);

/** A YYYY-MM-DD date as "1 March 2027". */
export const longDate = remembered((iso: string) => longDateFormat.format(new Date(`${iso}T00:00:00Z`)));

/**
 * Fills `{name}` placeholders in a content text (`{seconds}`, `{minLength}`, `{count}`, ...). Unknown
 * placeholders are left as they are so a content typo shows up instead of silently vanishing.
 */
export function fillPlaceholders(text: string, values: Readonly<Record<string, string | number>>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole,
  );
}

/** Joins the truthy class names: `cx('a', cond && 'b')`. */
export function cx(...names: Array<string | false | null | undefined>): string {
  return names.filter(Boolean).join(' ');
}

/** Joins element ids for aria-describedby, or undefined when there are none (so no empty attribute renders). */
export function ids(...values: Array<string | false | null | undefined>): string | undefined {
  const joined = values.filter(Boolean).join(' ');
  return joined === '' ? undefined : joined;
}

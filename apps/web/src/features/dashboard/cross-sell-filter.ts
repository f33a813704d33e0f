/**
 * Spec §5: `policyTypeFilter` is a comma list of product types with condition ALL, ANY or NONE, in any
 * case. ALL: the customer has every listed type; ANY: at least one; NONE: none of them. An empty list
 * filters nothing.
 */
export function crossSellApplies(
  filter: string,
  condition: string,
  productTypes: readonly string[],
): boolean {
  const wanted = filter
    .split(',')
    .map((t) => t.trim().toUpperCase())
    .filter(Boolean);
  if (wanted.length === 0) return true;
  const held = new Set(productTypes.map((t) => t.toUpperCase()));
  switch (condition.toUpperCase()) {
    case 'ALL':
      return wanted.every((t) => held.has(t));
    case 'NONE':
      return wanted.every((t) => !held.has(t));
    default:
      return wanted.some((t) => held.has(t));
  }
}

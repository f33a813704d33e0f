import type { PolicySummary } from '@portal/contracts/policy';

export type GridCategory = 'active' | 'upcoming' | 'expired';
export type DisplayMode = 'Loading' | 'Active' | 'Upcoming' | 'Expired' | 'Error';

export interface GridPolicies {
  active: readonly PolicySummary[];
  renewing: readonly PolicySummary[];
  upcoming: readonly PolicySummary[];
  expired: readonly PolicySummary[];
}

/** Spec §9: policies shown at first, and added by each "load more", per category. */
export const GRID_PAGE_SIZE = 3;
/** Spec §9: the number shown goes back to the first page after five minutes. */
export const GRID_RESET_MS = 300_000;

/** The policies of each filter: Active shows active and renewing policies together. */
export function categoryPolicies(policies: GridPolicies): Record<GridCategory, readonly PolicySummary[]> {
  return {
    active: [...policies.active, ...policies.renewing],
    upcoming: policies.upcoming,
    expired: policies.expired,
  };
}

/**
 * Spec §4: Active if any active or renewing policies exist, else Upcoming, else Expired, else Error;
 * Loading while no data is present.
 */
export function displayModeOf(policies: GridPolicies | undefined): DisplayMode {
  if (!policies) return 'Loading';
  if (policies.active.length + policies.renewing.length > 0) return 'Active';
  if (policies.upcoming.length > 0) return 'Upcoming';
  if (policies.expired.length > 0) return 'Expired';
  return 'Error';
}

/** Filter pills only for the categories that have policies, and only when more than one has. */
export function filterCategories(policies: GridPolicies): GridCategory[] {
  const byCategory = categoryPolicies(policies);
  const withPolicies = (['active', 'upcoming', 'expired'] as const).filter((c) => byCategory[c].length > 0);
  return withPolicies.length > 1 ? withPolicies : [];
}

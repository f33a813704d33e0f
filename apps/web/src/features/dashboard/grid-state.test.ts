import type { PolicySummary } from '@portal/contracts/policy';
import { describe, expect, it } from 'vitest';
import { categoryPolicies, displayModeOf, filterCategories } from './grid-state';

const p = (policyNumber: string, status: PolicySummary['status']) =>
  ({ policyNumber, status }) as PolicySummary;
const none = { active: [], renewing: [], upcoming: [], expired: [] };

describe('policies grid display mode (spec §4)', () => {
  it('is Loading without data, then Active, Upcoming, Expired or Error by what exists', () => {
    expect(displayModeOf(undefined)).toBe('Loading');
    expect(displayModeOf({ ...none, renewing: [p('1', 'Renewing')], expired: [p('2', 'Expired')] })).toBe(
      'Active',
    );
    expect(displayModeOf({ ...none, upcoming: [p('3', 'Upcoming')], expired: [p('2', 'Expired')] })).toBe(
      'Upcoming',
    );
    expect(displayModeOf({ ...none, expired: [p('2', 'Expired')] })).toBe('Expired');
    expect(displayModeOf(none)).toBe('Error');
  });

  it('puts renewing policies under Active, and offers pills only when more than one group has policies', () => {
    const lists = { ...none, active: [p('1', 'Active')], renewing: [p('2', 'RenewalCustomerReady')] };
    expect(categoryPolicies(lists).active.map((x) => x.policyNumber)).toEqual(['1', '2']);
    expect(filterCategories(lists)).toEqual([]);
    expect(filterCategories({ ...lists, expired: [p('3', 'Expired')] })).toEqual(['active', 'expired']);
  });
});

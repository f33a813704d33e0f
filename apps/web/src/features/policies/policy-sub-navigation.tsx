import type { PolicySummary } from '@portal/contracts/policy';
import { Link, useLocation } from 'react-router';
import { useCustomerData } from '../../content/use-customer-data';
import { trackNavPoliciesView } from '../../lib/analytics/virtual-views';
import { categoryGroups } from './policy-groups';

/**
 * Spec §2: the policy sub-navigation lists the customer's policies by active, upcoming and expired; picking
 * one opens the same page (overview, cover or documents) with `?id=` set to its policy number. Opening it is
 * the policies navigation's virtual page view (/dcs/nav/policies/).
 */
export function PolicySubNavigation({ current, label }: { current: string | null; label: string }) {
  const { data } = useCustomerData();
  const location = useLocation();
  if (!data) return null;
  const groups = categoryGroups(data.policies).filter((group) => group.policies.length > 0);
  const count = groups.reduce((sum, group) => sum + group.policies.length, 0);
  if (count < 2) return null;
  const link = (policy: PolicySummary) =>
    `${location.pathname}?${new URLSearchParams({ id: policy.policyNumber }).toString()}`;
  return (
    <nav className="policy-subnav" aria-label={label}>
      <details
        className="policy-subnav__details"
        onToggle={(event) => {
          if (event.currentTarget.open) trackNavPoliciesView();
        }}
      >
        <summary>{label}</summary>
        {groups.map((group) => (
          <div key={group.category} className="policy-subnav__group">
            <p className="policy-subnav__heading" id={`policy-subnav-${group.category}`}>
              {group.label}
            </p>
            <ul aria-labelledby={`policy-subnav-${group.category}`}>
              {group.policies.map((policy) => (
                <li key={policy.policyNumber}>
                  <Link to={link(policy)} aria-current={policy.policyNumber === current ? 'page' : undefined}>
                    {policy.productName}, <span className="nowrap">{policy.policyNumber}</span>
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </details>
    </nav>
  );
}

import type { BlockOf } from '@portal/contracts/content';
import type { PolicySummary } from '@portal/contracts/policy';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { CallToActionList } from '../../../content/call-to-action';
import { LoadMoreList } from '../../../content/load-more-list';
import { fillPlaceholders } from '../../../content/placeholders';
import { RichText } from '../../../content/rich-text';
import { trackDashboardPolicyView } from '../../../lib/analytics/virtual-views';
import { formatLongDate } from '../../../lib/format';
import {
  categoryPolicies,
  displayModeOf,
  filterCategories,
  GRID_PAGE_SIZE,
  GRID_RESET_MS,
  type GridCategory,
} from '../grid-state';
import { useCustomerData } from '../../../content/use-customer-data';
import { useNewDocumentCounts } from '../../../session/new-documents';
import { useCurrentUser } from '../../../session/tokens';

const categoryOfMode = { Active: 'active', Upcoming: 'upcoming', Expired: 'expired' } as const;

function PolicyCard({
  policy,
  block,
  newDocuments = 0,
}: {
  policy: PolicySummary;
  block: BlockOf<'policiesGrid'>;
  /** Its documents the customer has not opened yet (issue 40). */
  newDocuments?: number;
}) {
  const label = (key: string, fallback: string) => block.labels[key] ?? fallback;
  const expired = policy.status === 'Expired';
  const upcoming = policy.status === 'Upcoming';
  const renewing = policy.status === 'Renewing' || policy.status === 'RenewalCustomerReady';
  return (
    <li className="policy-card">
      <h3 className="policy-card__title">{policy.productName}</h3>
      {renewing && <p className="tag tag--yellow">{label('renewing', 'Renewal due')}</p>}
      <dl className="summary-list">
        <div>
          <dt>{label('policyNumber', 'Policy number')}</dt>
          <dd>{policy.policyNumber}</dd>
        </div>
        {policy.vehicleReg.length > 0 && (
          <div>
            <dt>{label('vehicles', 'Vehicles')}</dt>
            <dd>{policy.vehicleReg.join(', ')}</dd>
          </div>
        )}
        <div>
          <dt>
            {expired
              ? label('expiredOn', 'Ended on')
              : upcoming
                ? label('startDate', 'Start date')
                : label('renewalDate', 'Renewal date')}
          </dt>
          <dd>{formatLongDate(upcoming ? policy.startDate : policy.renewalDate)}</dd>
        </div>
      </dl>
      {newDocuments > 0 && (
        <p className="policy-card__new">
          <Link to={`/account/policies/documents?id=${encodeURIComponent(policy.policyNumber)}`}>
            <strong className="tag tag--yellow">{label('new', 'New')}</strong>{' '}
            {fillPlaceholders(
              newDocuments === 1
                ? label('newDocument', '1 new document')
                : label('newDocuments', '{count} new documents'),
              { count: newDocuments },
            )}
            <span className="visually-hidden">
              {' '}
              {policy.productName} {policy.policyNumber}
            </span>
          </Link>
        </p>
      )}
      <Link
        className="button button--secondary"
        to={`/account/policies/?id=${encodeURIComponent(policy.policyNumber)}`}
        onClick={() => trackDashboardPolicyView(policy.productName)}
      >
        {block.viewPolicyText}
        <span className="visually-hidden">
          {' '}
          {policy.productName} {policy.policyNumber}
        </span>
      </Link>
    </li>
  );
}

/**
 * The policies grid (spec customer-data §2, §4, §9): filter pills for the categories that have policies,
 * three cards per category and three more at each "load more", back to three five minutes after the
 * last one, "N ... policies available to view" above more than three, and the no-policies template. Load
 * more moves focus to the first card it adds and says how many were added.
 */
function PoliciesGridBlock({ block }: { block: BlockOf<'policiesGrid'> }) {
  const { data } = useCustomerData();
  const user = useCurrentUser();
  // Read by the menu as the page opened; shown here as it arrives.
  const newDocuments = useNewDocumentCounts(user?.customerId)?.byPolicy ?? {};
  const mode = displayModeOf(data?.policies);
  const [chosen, setChosen] = useState<GridCategory | null>(null);
  const [shown, setShown] = useState<Record<GridCategory, number>>({
    active: block.pageSize,
    upcoming: block.pageSize,
    expired: block.pageSize,
  });
  const resetTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(resetTimer.current), []);

  if (mode === 'Loading') return <p className="block-loading">Loading your policies…</p>;
  if (!data) return null;
  const headingId = `${block.id}-heading`;
  if (mode === 'Error') {
    const box = data.policiesFailed ? null : block.noPolicies;
    return (
      <section className="dashboard-block" aria-labelledby={headingId}>
        <h2 id={headingId}>{box?.heading ?? block.heading}</h2>
        {box ? (
          <>
            <RichText html={box.body} />
            <CallToActionList items={box.callsToAction} />
          </>
        ) : (
          <RichText html={block.errorText} className="inset-text" />
        )}
      </section>
    );
  }

  const byCategory = categoryPolicies(data.policies);
  const pills = filterCategories(data.policies);
  const category = chosen && byCategory[chosen].length > 0 ? chosen : categoryOfMode[mode];
  const policies = byCategory[category];
  const count = shown[category] ?? GRID_PAGE_SIZE;
  const loadMore = () => {
    setShown((current) => ({ ...current, [category]: current[category] + block.pageSize }));
    clearTimeout(resetTimer.current);
    resetTimer.current = setTimeout(
      () => setShown({ active: block.pageSize, upcoming: block.pageSize, expired: block.pageSize }),
      GRID_RESET_MS,
    );
  };
  const statusName = block.filterLabels[category].toLowerCase();

  return (
    <section className="dashboard-block" aria-labelledby={headingId}>
      <h2 id={headingId}>{block.heading}</h2>
      {pills.length > 0 && (
        <div className="pills" role="group" aria-label={block.filterAriaLabel}>
          {pills.map((pill) => (
            <button
              key={pill}
              type="button"
              className={pill === category ? 'pill pill--current' : 'pill'}
              aria-pressed={pill === category}
              onClick={() => setChosen(pill)}
            >
              {block.filterLabels[pill]} ({byCategory[pill].length})
            </button>
          ))}
        </div>
      )}
      {policies.length > GRID_PAGE_SIZE && (
        <p className="grid-count" aria-live="polite">
          {fillPlaceholders(block.availableText, { count: policies.length, status: statusName })}
        </p>
      )}
      <LoadMoreList
        state="ready"
        texts={{ loadMore: block.loadMoreText, added: block.loadMoreAddedText, apiError: block.errorText }}
        itemSelector=".policy-card"
        itemCount={Math.min(count, policies.length)}
        hasMore={count < policies.length}
        onLoadMore={loadMore}
      >
        <ul className="card-grid">
          {policies.slice(0, count).map((policy) => (
            <PolicyCard
              key={policy.policyNumber}
              policy={policy}
              block={block}
              newDocuments={newDocuments[policy.policyNumber]}
            />
          ))}
        </ul>
      </LoadMoreList>
    </section>
  );
}

export default PoliciesGridBlock;

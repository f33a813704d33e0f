import type { PageOf } from '@portal/contracts/content';
import type { PolicySummary } from '@portal/contracts/policy';
import { Link, useLocation } from 'react-router';
import { RichText } from '../../content/rich-text';
import { useCustomerData } from '../../content/use-customer-data';
import { createPageMessages, plainText } from '../../lib/content-messages';
import { formatLongDate } from '../../lib/format';
import { useDocumentTitle } from '../../lib/use-document-title';
import { categoryGroups } from './policy-groups';

const pageMessage = createPageMessages({
  listHeading: 'Your policies',
  listIntro: '<p>Choose a policy to see its details, what it covers and its documents.</p>',
  listLoadingMessage: 'Loading your policies',
  noPoliciesMessage:
    '<p>You have no policies with us at the moment. <a href="/account/dashboard">Go to your dashboard</a>.</p>',
  policiesApiError: '<p>Sorry, we cannot show your policies at the moment. Please try again later.</p>',
  renewalDateLabel: 'Renews on',
  startDateLabel: 'Starts on',
  expiredDateLabel: 'Ended on',
});

function dateLine(page: PageOf<'PolicyPage'>, policy: PolicySummary): string {
  if (policy.status === 'Upcoming')
    return `${plainText(pageMessage(page, 'startDateLabel'))} ${formatLongDate(policy.startDate)}`;
  const label = policy.status === 'Expired' ? 'expiredDateLabel' : 'renewalDateLabel';
  return `${plainText(pageMessage(page, label))} ${formatLongDate(policy.renewalDate)}`;
}

/**
 * A policy page opened without `?id=` (the main menu's "Your policies"): the customer's policies by active,
 * upcoming and expired (spec §2, the sub-navigation's groups), each linking to this same page (overview,
 * cover or documents) for that policy. Never the not-found text: that is for an id that is not theirs.
 */
export function PolicyList({ page }: { page: PageOf<'PolicyPage'> }) {
  const { data } = useCustomerData();
  const location = useLocation();
  const heading = plainText(pageMessage(page, 'listHeading'));
  // The tab says what the page shows, as its heading does: every policy, not one.
  useDocumentTitle(heading);
  const groups = data ? categoryGroups(data.policies).filter((group) => group.policies.length > 0) : [];
  const link = (policy: PolicySummary) =>
    `${location.pathname}?${new URLSearchParams({ id: policy.policyNumber }).toString()}`;
  return (
    <article className="page policy-page">
      <h1>{heading}</h1>
      {!data ? (
        <p className="block-loading" role="status">
          {plainText(pageMessage(page, 'listLoadingMessage'))}
        </p>
      ) : data.policiesFailed ? (
        <div role="alert">
          <RichText html={pageMessage(page, 'policiesApiError')} className="inset-text" />
        </div>
      ) : groups.length === 0 ? (
        <RichText html={pageMessage(page, 'noPoliciesMessage')} className="inset-text" />
      ) : (
        <>
          <RichText html={pageMessage(page, 'listIntro')} />
          {groups.map((group) => (
            <section
              key={group.category}
              className="policy-list"
              aria-labelledby={`policy-list-${group.category}`}
            >
              <h2 id={`policy-list-${group.category}`}>{group.label}</h2>
              <ul className="policy-list__items">
                {group.policies.map((policy) => (
                  <li key={policy.policyNumber} className="policy-list__item">
                    <Link to={link(policy)}>
                      {policy.productName}, <span className="nowrap">{policy.policyNumber}</span>
                    </Link>
                    <span className="policy-list__detail">{dateLine(page, policy)}</span>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </>
      )}
    </article>
  );
}

import { useSearchParams } from 'react-router';
import { ContentPageBody } from '../../content/content-page-body';
import type { PageProps } from '../../content/page-props';
import { RichText } from '../../content/rich-text';
import { plainText } from '../../lib/content-messages';
import { PolicyList } from './policy-list';
import { PolicySubNavigation } from './policy-sub-navigation';
import { usePolicyFromUrl } from './use-policy-from-url';

const NOT_FOUND_FALLBACK =
  '<p>We cannot find that policy in your account. <a href="/account/dashboard">Go to your dashboard</a> to see all your policies.</p>';
const LOADING_FALLBACK = 'Loading your policy';
const API_ERROR_FALLBACK = '<p>Sorry, we cannot show this policy at the moment. Please try again later.</p>';

/**
 * A policy's pages (spec customer-data §2: PolicyPage, query parameter id): overview, cover and documents.
 * The policy named by `?id=` must be one of the signed-in customer's; otherwise the page says so (the
 * server answers 404 for anyone else's). The blocks read the same policy from the query cache. Without an
 * id (the main menu's "Your policies") the page lists the customer's policies to choose from.
 */
export default function PolicyPage({ page }: PageProps<'PolicyPage'>) {
  const [params] = useSearchParams();
  if (!params.get('id')) return <PolicyList page={page} />;
  return <OnePolicy page={page} />;
}

function OnePolicy({ page }: PageProps<'PolicyPage'>) {
  const policy = usePolicyFromUrl();
  const current = policy.state === 'ready' ? policy.policyNumber : null;
  return (
    <article className="page policy-page">
      <h1>
        {page.heading}
        {policy.state === 'ready' && (
          <span className="page__subheading">
            <span className="visually-hidden">: </span>
            {policy.policy.productName}, <span className="nowrap">{policy.policy.policyNumber}</span>
          </span>
        )}
      </h1>
      <PolicySubNavigation
        current={current}
        label={page.messages['subNavigationLabel'] ?? 'Your other policies'}
      />
      {/* Its own words: the full-page loader's, shown over it at the start, were read and seen twice. */}
      {policy.state === 'loading' && (
        <p className="block-loading" role="status">
          {plainText(page.messages['loadingMessage'] ?? LOADING_FALLBACK)}
        </p>
      )}
      {policy.state === 'notFound' && (
        <RichText
          html={page.messages['policyNotFoundMessage'] ?? NOT_FOUND_FALLBACK}
          className="inset-text"
        />
      )}
      {policy.state === 'error' && (
        <div role="alert">
          <RichText html={page.messages['apiError'] ?? API_ERROR_FALLBACK} className="inset-text" />
        </div>
      )}
      {policy.state === 'ready' && <ContentPageBody page={page} />}
    </article>
  );
}

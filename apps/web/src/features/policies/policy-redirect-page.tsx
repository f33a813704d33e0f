import { Link, Navigate, useSearchParams } from 'react-router';
import type { PageProps } from '../../content/page-props';
import { RichText } from '../../content/rich-text';
import { useCustomerData } from '../../content/use-customer-data';
import { findPolicy } from './policy-groups';

const kinds = ['policy', 'cover', 'documents', 'bills'] as const;
type Kind = (typeof kinds)[number];

/**
 * Spec §4 "Policy redirect after login": `?id={policyNumber}&page=policy|cover|documents|bills` finds the
 * policy among the customer's active, upcoming and expired lists and opens its matching page; a policy
 * that is not there leads to the not-found address with the content's message.
 */
export default function PolicyRedirectPage({ page }: PageProps<'PolicyRedirectPage'>) {
  const [params] = useSearchParams();
  const { data } = useCustomerData();
  const id = params.get('id') ?? '';
  const wanted = params.get('page');
  const kind: Kind = kinds.includes(wanted as Kind) ? (wanted as Kind) : 'policy';
  if (!data) {
    return (
      <article className="page">
        <h1>{page.heading}</h1>
        <p className="block-loading" role="status">
          Thank you for being patient. We're just loading your details.
        </p>
      </article>
    );
  }
  const policy = id ? findPolicy(data.policies, id) : undefined;
  if (policy) {
    const target = `${page.targets[kind]}?${new URLSearchParams({ id: policy.policyNumber }).toString()}`;
    return <Navigate to={target} replace />;
  }
  return (
    <article className="page">
      <h1>{page.heading}</h1>
      <RichText html={page.messages['policyNotFoundMessage']} className="inset-text" />
      <p>
        <Link to={page.notFoundUrl}>Go to your dashboard</Link>
      </p>
    </article>
  );
}

import type { PageProps } from '../../content/page-props';
import { RichText } from '../../content/rich-text';
import { MarketingStep } from './components/marketing-step';

/**
 * The account root (spec section 2: "Account root, marketing preferences step after first login"): the
 * first-sign-in marketing step, or straight on to the dashboard when it was answered before.
 */
export default function AccountPage({ page }: PageProps<'AccountPage'>) {
  return (
    <article className="page">
      <h1>{page.heading}</h1>
      <RichText html={page.intro} className="page__intro" />
      <MarketingStep page={page} />
    </article>
  );
}

import type { PageProps } from '../../content/page-props';
import { RichText } from '../../content/rich-text';
import { MarketingStep } from './components/marketing-step';

/** The first-sign-in marketing preferences step at its own address (content type RegistrationMarketingPreferences). */
export default function RegistrationMarketingPreferencesPage({
  page,
}: PageProps<'RegistrationMarketingPreferences'>) {
  return (
    <article className="page">
      <h1>{page.heading}</h1>
      <RichText html={page.intro} className="page__intro" />
      <MarketingStep page={page} />
    </article>
  );
}

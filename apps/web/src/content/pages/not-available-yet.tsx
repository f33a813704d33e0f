import { useSiteSettings } from '../use-site-settings';
import { telHref } from '../placeholders';
import type { AnyPageProps } from '../page-props';

/**
 * For page types whose feature is not built yet: the page's own heading, and a plain statement that
 * this part is not online yet with the freephone number. It shows nothing that could pass for data.
 */
export default function NotAvailableYet({ page }: AnyPageProps) {
  const settings = useSiteSettings();
  const phone = settings.infinityPhoneTracking;
  return (
    <article className="page">
      <h1>{page.heading}</h1>
      <div className="inset-text" data-testid="not-available-yet">
        <p>Sorry, this part of your account is not available online yet.</p>
        <p>
          To do this now, call us free on <a href={telHref(phone)}>{phone}</a>.
        </p>
      </div>
    </article>
  );
}

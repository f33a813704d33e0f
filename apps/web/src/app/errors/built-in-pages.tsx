import { FALLBACK_PHONE } from '../../content/fallback-phone';
import { telHref } from '../../content/placeholders';
import { useOptionalSiteSettings } from '../../content/use-site-settings';
import { useDocumentTitle } from '../../lib/use-document-title';
import { FallbackMessage } from './fallback-message';
import { FALLBACK_HEADING } from './fallback-texts';

/** The error page when its content cannot be loaded either. */
export function BuiltInErrorPage() {
  const phone = useOptionalSiteSettings()?.infinityPhoneTracking;
  useDocumentTitle(FALLBACK_HEADING);
  return <FallbackMessage phone={phone} />;
}

const MAINTENANCE_HEADING = 'Sorry, the service is unavailable';

/** The maintenance page when its content cannot be loaded. */
export function BuiltInMaintenancePage() {
  const phone = useOptionalSiteSettings()?.infinityPhoneTracking ?? FALLBACK_PHONE;
  useDocumentTitle(MAINTENANCE_HEADING);
  return (
    <article className="page">
      <h1>{MAINTENANCE_HEADING}</h1>
      <p>We are making improvements to your online account. You will be able to use it again soon.</p>
      <p>
        If you need help now, call us free on <a href={telHref(phone)}>{phone}</a>.
      </p>
    </article>
  );
}

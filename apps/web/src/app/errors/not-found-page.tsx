import type { SiteSettings } from '@portal/contracts/content';
import { Link } from 'react-router';
import { FALLBACK_PHONE } from '../../content/fallback-phone';
import { telHref } from '../../content/placeholders';
import { commonText, useOptionalSiteSettings } from '../../content/use-site-settings';
import { useSession } from '../../session/session';
import { useDocumentTitle } from '../../lib/use-document-title';

const NOT_FOUND_HEADING = 'Page not found';
const NOT_FOUND_BODY =
  'If you typed the web address, check it is correct. If you pasted the web address, check you copied the entire address.';

/** The not-found page's heading (and title), from content. */
export function notFoundHeading(settings: SiteSettings | null | undefined): string {
  return commonText(settings ?? undefined, 'notFoundHeading', NOT_FOUND_HEADING);
}

/** The content service has no page at this address. */
export function NotFoundPage() {
  const settings = useOptionalSiteSettings();
  const { isAuthenticated } = useSession();
  const heading = notFoundHeading(settings);
  const phone = settings?.infinityPhoneTracking ?? FALLBACK_PHONE;
  useDocumentTitle(heading);
  return (
    <article className="page">
      <h1>{heading}</h1>
      <p className="page__intro">{commonText(settings, 'notFoundBody', NOT_FOUND_BODY)}</p>
      <p>You can:</p>
      <ul className="list list--bullet">
        <li>
          {isAuthenticated ? (
            <Link to={settings?.dashboardPage ?? '/account/dashboard'}>go to your dashboard</Link>
          ) : (
            <Link to={settings?.loginPage ?? '/login'}>sign in to your account</Link>
          )}
        </li>
        <li>
          <Link to="/help/faqs">read our help and questions</Link>
        </li>
        <li>
          call us free on <a href={telHref(phone)}>{phone}</a>
        </li>
      </ul>
    </article>
  );
}

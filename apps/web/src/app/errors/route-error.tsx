import { useEffect } from 'react';
import { isRouteErrorResponse, useLocation, useRouteError } from 'react-router';
import { FALLBACK_PHONE } from '../../content/fallback-phone';
import { telHref } from '../../content/placeholders';
import { useOptionalSiteSettings } from '../../content/use-site-settings';
import { useDocumentTitle } from '../../lib/use-document-title';
import { UNEXPECTED_ERROR_HEADING } from './fallback-texts';

/** Logs what failed without request details (they may carry personal data). */
export function useLogRouteError(error: unknown) {
  useEffect(() => {
    if (isRouteErrorResponse(error)) console.error(`Route error ${error.status} ${error.statusText}`);
    else if (error instanceof Error)
      console.error(`Unexpected application error: ${error.name}: ${error.message}`);
    else console.error('Unexpected application error');
  }, [error]);
}

/** What the customer can do after an unexpected failure; plain anchors, so "try again" reloads. */
export function UnexpectedErrorMessage({ phone }: { phone: string }) {
  const location = useLocation();
  const here = location.pathname + location.search;
  return (
    <article className="page">
      <h1>{UNEXPECTED_ERROR_HEADING}</h1>
      <p>Sorry, something went wrong while showing this page.</p>
      <ul className="list list--bullet">
        <li>
          <a href={here}>Try again</a>
        </li>
        <li>
          <a href="/">Go to the start page</a>
        </li>
      </ul>
      <p>
        If you need help urgently, call us free on <a href={telHref(phone)}>{phone}</a>.
      </p>
    </article>
  );
}

/** A page failed to load or render: the message inside the layout, header and footer still usable. */
export function RouteError() {
  const error = useRouteError();
  const phone = useOptionalSiteSettings()?.infinityPhoneTracking ?? FALLBACK_PHONE;
  useLogRouteError(error);
  useDocumentTitle(UNEXPECTED_ERROR_HEADING);
  return <UnexpectedErrorMessage phone={phone} />;
}

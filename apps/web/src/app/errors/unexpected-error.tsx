import { useRouteError } from 'react-router';
import { FALLBACK_PHONE } from '../../content/fallback-phone';
import { useDocumentTitle } from '../../lib/use-document-title';
import { UNEXPECTED_ERROR_HEADING } from './fallback-texts';
import { MinimalPage } from './minimal-page';
import { UnexpectedErrorMessage, useLogRouteError } from './route-error';

/** The root route's error element: the layout itself failed, so a minimal frame around the message. */
export function UnexpectedError() {
  const error = useRouteError();
  useLogRouteError(error);
  useDocumentTitle(UNEXPECTED_ERROR_HEADING);
  return (
    <MinimalPage>
      <UnexpectedErrorMessage phone={FALLBACK_PHONE} />
    </MinimalPage>
  );
}

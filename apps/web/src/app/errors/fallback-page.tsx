import { useDocumentTitle } from '../../lib/use-document-title';
import { FallbackMessage } from './fallback-message';
import { FALLBACK_HEADING } from './fallback-texts';
import { MinimalPage } from './minimal-page';

/** Full-page fallback for when the site settings cannot be loaded (spec sections 7 and 8). */
export function FallbackPage() {
  useDocumentTitle(FALLBACK_HEADING);
  return (
    <MinimalPage>
      <FallbackMessage />
    </MinimalPage>
  );
}

import type { PageContent } from '@portal/contracts/content';
import { Suspense } from 'react';
import { PageTitle, useDocumentTitle } from '../lib/use-document-title';
import { getLoadedPageComponent, isKnownPageType, lazyPageComponent } from './page-registry';
import { telHref } from '../content/placeholders';
import { useOptionalSiteSettings } from '../content/use-site-settings';
import { FALLBACK_PHONE } from '../content/fallback-phone';

/** Content named a page type this version of the portal does not know: say so, offer the phone. */
function UnknownPageType() {
  const phone = useOptionalSiteSettings()?.infinityPhoneTracking ?? FALLBACK_PHONE;
  useDocumentTitle('This page cannot be shown');
  return (
    <article className="page" data-testid="unknown-page-type">
      <h1>This page cannot be shown</h1>
      <p>Sorry, we cannot show this page at the moment. Please try again later.</p>
      <p>
        If you need help now, call us free on <a href={telHref(phone)}>{phone}</a>.
      </p>
    </article>
  );
}

/** Renders a page through the registry: the component for the type that its content names. */
export function PageView({ page }: { page: PageContent }) {
  return (
    <PageTitle title={page.meta.title}>
      <PageOfType page={page} />
    </PageTitle>
  );
}

function PageOfType({ page }: { page: PageContent }) {
  const type: string = page.type;
  if (!isKnownPageType(type)) return <UnknownPageType />;
  // Both come from module-level caches: the same component for a type on every render.
  const Loaded = getLoadedPageComponent(type);
  // eslint-disable-next-line react-hooks/static-components
  if (Loaded) return <Loaded key={page.id} page={page} />;
  const Lazy = lazyPageComponent(type);
  return (
    <Suspense fallback={null}>
      {/* eslint-disable-next-line react-hooks/static-components */}
      <Lazy key={page.id} page={page} />
    </Suspense>
  );
}

import { ContentPageBody } from '../content-page-body';
import type { AnyPageProps } from '../page-props';

/** Shown instead of any page while content says the portal (or that page) is in maintenance. */
export default function MaintenancePage({ page }: AnyPageProps) {
  return (
    <article className="page">
      <h1>{page.heading}</h1>
      <ContentPageBody page={page} />
    </article>
  );
}

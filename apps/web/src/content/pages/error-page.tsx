import { ContentPageBody } from '../content-page-body';
import type { AnyPageProps } from '../page-props';

/** The error page as content writes it (shown at /error). */
export default function ErrorPage({ page }: AnyPageProps) {
  return (
    <article className="page">
      <h1>{page.heading}</h1>
      <ContentPageBody page={page} />
    </article>
  );
}

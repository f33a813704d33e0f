import { ContentPageBody } from '../content-page-body';
import type { AnyPageProps } from '../page-props';

/**
 * A page made entirely of content: heading, intro, blocks and calls to action. Also the error page (shown at
 * /error) and the maintenance page (shown instead of any page while content says it is in maintenance).
 */
export default function StandardPageTemplate({ page }: AnyPageProps) {
  return (
    <article className="page">
      <h1>{page.heading}</h1>
      <ContentPageBody page={page} />
    </article>
  );
}

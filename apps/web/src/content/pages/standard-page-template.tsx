import { ContentPageBody } from '../content-page-body';
import type { AnyPageProps } from '../page-props';

/** A page made entirely of content: heading, intro, blocks and calls to action. */
export default function StandardPageTemplate({ page }: AnyPageProps) {
  return (
    <article className="page">
      <h1>{page.heading}</h1>
      <ContentPageBody page={page} />
    </article>
  );
}

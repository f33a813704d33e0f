import { ContentPageBody } from '../content-page-body';
import type { PageProps } from '../page-props';

/** The page after a form succeeds: a confirmation panel, the content's image and what happens next. */
export default function FormSuccessPage({ page }: PageProps<'FormSuccessPage'>) {
  return (
    <article className="page">
      <div className="panel panel--success">
        <h1 className="panel__title">{page.heading}</h1>
      </div>
      {page.image ? (
        <img
          className="page__image"
          src={page.image.src}
          alt={page.image.alt}
          width={page.image.width}
          height={page.image.height}
        />
      ) : null}
      <ContentPageBody page={page} />
    </article>
  );
}

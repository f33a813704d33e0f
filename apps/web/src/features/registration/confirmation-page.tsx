import { ContentPageBody } from '../../content/content-page-body';
import type { PageProps } from '../../content/page-props';

/**
 * "Check your email" after a registration was accepted: what happens next and what to do if the email
 * does not arrive, all from content. Nothing about the customer is shown: the same page follows every
 * accepted registration, so it reveals nothing about whether an account exists.
 */
export default function ConfirmationPage({ page }: PageProps<'ConfirmationPage'>) {
  return (
    <article className="page">
      <div className="panel panel--success">
        <h1 className="panel__title">{page.heading}</h1>
      </div>
      <ContentPageBody page={page} />
    </article>
  );
}

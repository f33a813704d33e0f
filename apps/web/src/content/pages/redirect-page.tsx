import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { ContentLink } from '../content-link';
import { RichText } from '../rich-text';
import type { PageProps } from '../page-props';

/**
 * Sends the customer on to the page content names. Site paths are followed by the route loader before
 * this renders; this handles other sites. A new-tab target is offered as a link (browsers block tabs
 * opened without a click).
 */
export default function RedirectPage({ page }: PageProps<'RedirectPage'>) {
  const navigate = useNavigate();
  const internal = page.target.startsWith('/') && !page.target.startsWith('//');
  const automatic = page.opensIn !== 'NewTab';
  useEffect(() => {
    if (!automatic) return;
    if (internal) navigate(page.target, { replace: true });
    else window.location.replace(page.target);
  }, [automatic, internal, navigate, page.target]);
  return (
    <article className="page">
      <h1>{page.heading}</h1>
      <RichText html={page.intro} className="page__intro" />
      <p>
        <ContentLink href={page.target} opensIn={page.opensIn} className="button">
          Continue
        </ContentLink>
      </p>
    </article>
  );
}

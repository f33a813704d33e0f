import { FALLBACK_PHONE } from '../../content/fallback-phone';
import { telHref } from '../../content/placeholders';
import {
  FALLBACK_BODY,
  FALLBACK_HEADING,
  FALLBACK_REFRESH_ADVICE,
  FALLBACK_URGENT_HELP,
} from './fallback-texts';

/** The "Something went wrong" message of spec section 8. */
export function FallbackMessage({ phone = FALLBACK_PHONE }: { phone?: string }) {
  return (
    <article className="page">
      <h1>{FALLBACK_HEADING}</h1>
      <p>{FALLBACK_BODY}</p>
      <p>{FALLBACK_REFRESH_ADVICE}</p>
      <p>
        {FALLBACK_URGENT_HELP} <a href={telHref(phone)}>{phone}</a>.
      </p>
    </article>
  );
}

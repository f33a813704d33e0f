import type { CallToAction } from '@portal/contracts/content';
import { useSession } from '../session/session';
import { ContentLink } from './content-link';
import { useOptionalSiteSettings } from './use-site-settings';

function classFor(style: CallToAction['style']): string {
  if (style === 'link') return 'link';
  return style === 'secondary' ? 'button button--secondary' : 'button';
}

/** Visible text: the short mobile label replaces the full text on narrow screens (CSS decides). */
function Label({ cta }: { cta: CallToAction }) {
  if (!cta.mobileLabel) return <>{cta.text}</>;
  return (
    <>
      <span className="cta__full">{cta.text}</span>
      <span className="cta__short">{cta.mobileLabel}</span>
    </>
  );
}

export interface CallToActionButtonProps {
  cta: CallToAction;
  /** What a Close call to action does (in a modal); without it, Close renders nothing. */
  onClose?: () => void;
}

/**
 * One call to action from content (spec customer-data §4 link types). Logout closes the modal it is in and
 * signs out (to the sign-in page of settings), Close closes (modals), submit submits the surrounding form;
 * primaryFunctional, Default and any other type with a link go where content says: a new tab for opensIn
 * NewTab, inside the app for this site's addresses, otherwise the browser leaves. The policy-system types
 * (Guidewire...) need the policy's own address, which the policy features supply; here they render only
 * when content gives a link.
 */
export function CallToActionButton({ cta, onClose }: CallToActionButtonProps) {
  const { signOut } = useSession();
  const settings = useOptionalSiteSettings();
  const className = classFor(cta.style);
  switch (cta.linkType) {
    case 'Logout':
      return (
        <button
          type="button"
          className={className}
          onClick={() => {
            onClose?.();
            void signOut(settings?.loginPage ?? {});
          }}
        >
          <Label cta={cta} />
        </button>
      );
    case 'Close':
      return onClose ? (
        <button type="button" className={className} onClick={onClose}>
          <Label cta={cta} />
        </button>
      ) : null;
    case 'submit':
      return (
        <button type="submit" className={className}>
          <Label cta={cta} />
        </button>
      );
    default:
      if (!cta.link) return null;
      return (
        <ContentLink href={cta.link} opensIn={cta.opensIn} className={className}>
          <Label cta={cta} />
        </ContentLink>
      );
  }
}

export function CallToActionList({
  items,
  onClose,
}: {
  items: readonly CallToAction[];
  onClose?: () => void;
}) {
  if (items.length === 0) return null;
  return (
    <div className="cta-list">
      {items.map((cta, i) => (
        <CallToActionButton key={cta.id ?? `${cta.text}-${i}`} cta={cta} onClose={onClose} />
      ))}
    </div>
  );
}

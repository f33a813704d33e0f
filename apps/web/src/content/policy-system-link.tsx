import type { ModalContent } from '@portal/contracts/content';
import { useState, type ReactNode } from 'react';
import { Modal } from '../components/ui/modal';
import { NEW_TAB_NOTE } from './content-link';
import { RichText } from './rich-text';
import { useOptionalSiteSettings } from './use-site-settings';

export interface PolicySystemLinkProps {
  href: string;
  children: ReactNode;
  className?: string;
  /** The bespoke interstitial (request a change) rather than the standard one. */
  bespoke?: boolean;
  /** Show the interstitial first (spec §4: when showInterstitial applies); default true. */
  interstitial?: boolean;
  /** Where the link opens when no interstitial is shown (with one, the modal's Continue decides). */
  opensIn?: 'SameTab' | 'NewTab';
}

/**
 * A link that leaves for the insurer's policy system (make a change, view a renewal, request a change,
 * continue a quote). Before leaving, the interstitial modal from content says where the customer is going;
 * Continue follows the link (same tab), Cancel stays. Without interstitial content, it is a plain link.
 */
export function PolicySystemLink({
  href,
  children,
  className,
  bespoke = false,
  interstitial = true,
  opensIn = 'SameTab',
}: PolicySystemLinkProps) {
  const settings = useOptionalSiteSettings();
  const [open, setOpen] = useState(false);
  const content = (
    bespoke ? settings?.gwInterstitialBespokeModalWindowBlock : settings?.gwInterstitialModalWindowBlock
  ) as ModalContent | undefined;
  if (!interstitial || !content) {
    const direct = opensIn === 'NewTab';
    return (
      <a
        href={href}
        className={className}
        target={direct ? '_blank' : undefined}
        rel={direct ? 'noopener noreferrer' : undefined}
      >
        {children}
        {direct ? (
          <>
            {' '}
            <span className="visually-hidden">{NEW_TAB_NOTE}</span>
          </>
        ) : null}
      </a>
    );
  }
  const proceed = content.primaryCallsToAction[0];
  const continueText = proceed?.text ?? 'Continue';
  const newTab = proceed?.opensIn === 'NewTab';
  const cancelText = content.secondaryCallsToAction[0]?.text ?? 'Cancel';
  return (
    <>
      <a
        href={href}
        className={className}
        onClick={(event) => {
          event.preventDefault();
          setOpen(true);
        }}
      >
        {children}
      </a>
      <Modal
        open={open}
        title={content.heading}
        onClose={() => setOpen(false)}
        closeLabel={content.closeLabel}
      >
        <RichText html={content.bodyText ?? content.upperBody} />
        <RichText html={content.requestText} />
        <RichText html={content.lowerBody} />
        <div className="cta-list">
          <a
            href={href}
            className="button"
            target={newTab ? '_blank' : undefined}
            rel={newTab ? 'noopener noreferrer' : undefined}
            onClick={() => setOpen(false)}
          >
            {continueText}
            {newTab ? (
              <>
                {' '}
                <span className="visually-hidden">{NEW_TAB_NOTE}</span>
              </>
            ) : null}
          </a>
          <button type="button" className="button button--secondary" onClick={() => setOpen(false)}>
            {cancelText}
          </button>
        </div>
      </Modal>
    </>
  );
}

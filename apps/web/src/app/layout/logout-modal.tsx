import type { ModalContent } from '@portal/contracts/content';
import { CallToActionList } from '../../content/call-to-action';
import { RichText } from '../../content/rich-text';
import { Modal } from '../../components/ui/modal';

/**
 * The logout modal window (spec customer-data §2, §4): asked when the customer presses Sign out, with the
 * content's calls to action: Logout signs out, Close (and the X, and Escape) keeps the customer signed in.
 * An accessible dialog: focus moves in when it opens and back to the sign-out button when it closes.
 */
export function LogoutModal({ content, onClose }: { content: ModalContent; onClose: () => void }) {
  return (
    <Modal
      open
      title={content.heading}
      onClose={onClose}
      closeLabel={content.closeLabel}
      className="logout-modal"
    >
      {content.topHeading && <p className="logout-modal__top">{content.topHeading}</p>}
      <RichText html={content.bodyText ?? content.upperBody} />
      <RichText html={content.lowerBody} />
      <CallToActionList items={content.primaryCallsToAction} onClose={onClose} />
      <CallToActionList items={content.secondaryCallsToAction} onClose={onClose} />
    </Modal>
  );
}

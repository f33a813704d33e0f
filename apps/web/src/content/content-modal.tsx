import type { ModalContent } from '@portal/contracts/content';
import { Modal } from '../components/ui/modal';
import { CallToActionList } from './call-to-action';
import { RichText } from './rich-text';

/**
 * A modal window as content describes it (spec customer-data §3 "Modal content"): heading, top heading,
 * image, body, lower body and its calls to action (Close hides it, Logout signs out: spec §4). The logout,
 * welcome and splash modals are this; `onClose` runs for Close, the X and Escape alike.
 */
export function ContentModal({ content, onClose }: { content: ModalContent; onClose: () => void }) {
  return (
    <Modal open title={content.heading} onClose={onClose} closeLabel={content.closeLabel}>
      {content.topHeading && <p className="content-modal__top">{content.topHeading}</p>}
      {content.desktopImage && (
        <img className="content-modal__image" src={content.desktopImage.src} alt={content.desktopImage.alt} />
      )}
      <RichText html={content.upperBody ?? content.bodyText} />
      <RichText html={content.lowerBody} />
      <CallToActionList items={content.primaryCallsToAction} onClose={onClose} />
      <CallToActionList items={content.secondaryCallsToAction} onClose={onClose} />
    </Modal>
  );
}

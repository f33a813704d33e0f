import type { BlockOf, ReauthenticationTexts } from '@portal/contracts/content';
import { useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { NotificationBanner } from '../../../components/ui/notification-banner';
import { SummaryRow } from '../../../components/ui/summary-row';
import { RichText } from '../../../content/rich-text';
import { useCustomerData } from '../../../content/use-customer-data';
import { useKeptDraft } from '../../../session/drafts';
import { useCurrentUser } from '../../../session/tokens';
import { ContactChangeForm } from '../components/contact-change-form';
import { useReauthenticate } from '../reauthenticate';

type Block = BlockOf<'contactDetails'>;
type Kind = 'email' | 'mobile';

/** Used only when content has no password dialog texts: the change then cannot ask for the password. */
const noReauthentication: ReauthenticationTexts = {
  heading: '',
  body: '',
  passwordLabel: '',
  passwordRequiredMessage: '',
  passwordErrorMessage: '',
  errorMessage: '',
  confirmText: '',
  cancelText: '',
};

/**
 * Contact details (spec customer-data §2; issue 26): email, mobile and landline, each row hidden when
 * empty (a customer without a mobile is offered to add one). The email address and the mobile number can be
 * changed (or a mobile added) when content offers it: a small flow under the list (the new value, then
 * the code sent to it), after the password when the sign-in is not recent. The outcome is announced and
 * takes focus; cancelling gives focus back to the button that opened the flow.
 */
function ContactDetailsBlock({ block }: { block: Block }) {
  const { data, isLoading, updateProfile } = useCustomerData();
  const user = useCurrentUser();
  const customerId = user?.customerId;
  // What the customer was typing in a change form when the inactivity timer signed them out (issue 40).
  const drafts = {
    email: useKeptDraft(`profile-contact:${block.id}:email`, customerId),
    mobile: useKeptDraft(`profile-contact:${block.id}:mobile`, customerId),
  };
  const [open, setOpen] = useState<Kind | null>(() =>
    drafts.email.kept && block.emailChange
      ? 'email'
      : drafts.mobile.kept && block.mobileChange
        ? 'mobile'
        : null,
  );
  const draftTexts = { kept: block.draftKeptText, discard: block.discardDraftText };
  const [done, setDone] = useState<{ kind: Kind; added: boolean; n: number } | null>(null);
  const emailOpener = useRef<HTMLButtonElement>(null);
  const mobileOpener = useRef<HTMLButtonElement>(null);
  const counter = useRef(0);
  const { guarded, dialog } = useReauthenticate(customerId, block.reauthenticate ?? noReauthentication);

  if (isLoading) return <p className="block-loading">{block.loadingText}</p>;
  const profile = data?.profile;
  const headingId = `${block.id}-heading`;
  if (!profile) {
    return (
      <div role="alert">
        <RichText html={block.errorText} className="inset-text" />
      </div>
    );
  }
  const start = (kind: Kind) => {
    setDone(null);
    setOpen(kind);
  };
  const hasMobile = Boolean(profile.mobileNumber);
  const mobileFlow = block.mobileChange;
  const successHtml =
    done === null
      ? null
      : done.kind === 'email'
        ? block.emailChange?.successMessage
        : done.added
          ? mobileFlow?.addedMessage
          : mobileFlow?.successMessage;

  return (
    <section className="content-block" aria-labelledby={block.heading ? headingId : undefined}>
      {block.heading && <h2 id={headingId}>{block.heading}</h2>}
      {successHtml && (
        <NotificationBanner key={done!.n} variant="success" focusOnMount>
          <RichText html={successHtml} />
        </NotificationBanner>
      )}
      <dl className="summary-list">
        <SummaryRow label={block.labels.email}>{profile.emailAddress}</SummaryRow>
        <SummaryRow label={block.labels.mobile}>{profile.mobileNumber}</SummaryRow>
        <SummaryRow label={block.labels.landline}>{profile.landlineNumber}</SummaryRow>
      </dl>
      {customerId && (block.emailChange || mobileFlow) && open === null && (
        <div className="cta-list">
          {block.emailChange && (
            <Button ref={emailOpener} variant="secondary" onClick={() => start('email')}>
              {block.emailChange.changeButtonText}
            </Button>
          )}
          {mobileFlow && (
            <Button ref={mobileOpener} variant="secondary" onClick={() => start('mobile')}>
              {hasMobile ? mobileFlow.changeButtonText : mobileFlow.addButtonText}
            </Button>
          )}
        </div>
      )}
      {customerId && open === 'email' && block.emailChange && (
        <ContactChangeForm
          kind="email"
          id={`${block.id}-email`}
          texts={block.emailChange}
          heading={block.emailChange.heading}
          headingLevel={block.heading ? 3 : 2}
          customerId={customerId}
          current={profile.emailAddress}
          guarded={guarded}
          draftName={`profile-contact:${block.id}:email`}
          draft={drafts.email}
          draftTexts={draftTexts}
          onDone={(emailAddress) => {
            updateProfile({ emailAddress });
            counter.current += 1;
            setOpen(null);
            setDone({ kind: 'email', added: false, n: counter.current });
          }}
          onCancel={() => {
            setOpen(null);
            requestAnimationFrame(() => emailOpener.current?.focus());
          }}
        />
      )}
      {customerId && open === 'mobile' && mobileFlow && (
        <ContactChangeForm
          kind="mobile"
          id={`${block.id}-mobile`}
          texts={mobileFlow}
          heading={hasMobile ? mobileFlow.heading : mobileFlow.addHeading}
          headingLevel={block.heading ? 3 : 2}
          customerId={customerId}
          current={profile.mobileNumber}
          guarded={guarded}
          draftName={`profile-contact:${block.id}:mobile`}
          draft={drafts.mobile}
          draftTexts={draftTexts}
          onDone={(mobileNumber) => {
            updateProfile({ mobileNumber });
            counter.current += 1;
            setOpen(null);
            setDone({ kind: 'mobile', added: !hasMobile, n: counter.current });
          }}
          onCancel={() => {
            setOpen(null);
            requestAnimationFrame(() => mobileOpener.current?.focus());
          }}
        />
      )}
      {block.changeText && <RichText html={block.changeText} />}
      {dialog}
    </section>
  );
}

export default ContactDetailsBlock;

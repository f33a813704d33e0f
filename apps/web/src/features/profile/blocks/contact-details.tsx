import type { BlockOf } from '@portal/contracts/content';
import { RichText } from '../../../content/rich-text';
import { useCustomerData } from '../../../content/use-customer-data';
import { SummaryRow } from '../../../components/ui/summary-row';

/** Contact details (spec customer-data §2): email, mobile and landline, each row hidden when empty. */
function ContactDetailsBlock({ block }: { block: BlockOf<'contactDetails'> }) {
  const { data, isLoading } = useCustomerData();
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
  return (
    <section className="content-block" aria-labelledby={block.heading ? headingId : undefined}>
      {block.heading && <h2 id={headingId}>{block.heading}</h2>}
      <dl className="summary-list">
        <SummaryRow label={block.labels.email}>{profile.emailAddress}</SummaryRow>
        <SummaryRow label={block.labels.mobile}>{profile.mobileNumber}</SummaryRow>
        <SummaryRow label={block.labels.landline}>{profile.landlineNumber}</SummaryRow>
      </dl>
      <RichText html={block.changeText} />
    </section>
  );
}

export default ContactDetailsBlock;

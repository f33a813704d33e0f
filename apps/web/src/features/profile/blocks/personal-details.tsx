import type { BlockOf } from '@portal/contracts/content';
import { RichText } from '../../../content/rich-text';
import { useCustomerData } from '../../../content/use-customer-data';
import { SummaryRow } from '../../../components/ui/summary-row';

/**
 * Personal details (spec customer-data §2): first name, last name, date of birth and the address lines
 * joined; the content's error text when the profile could not be read.
 */
function PersonalDetailsBlock({ block }: { block: BlockOf<'personalDetails'> }) {
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
  const address = [
    profile.addressLineOne,
    profile.addressLineTwo,
    profile.addressLineThree,
    profile.town,
    profile.county,
    profile.postCode,
  ].filter((line) => line.trim() !== '');
  return (
    <section className="content-block" aria-labelledby={block.heading ? headingId : undefined}>
      {block.heading && <h2 id={headingId}>{block.heading}</h2>}
      <dl className="summary-list">
        <SummaryRow label={block.labels.firstName}>{profile.firstName}</SummaryRow>
        <SummaryRow label={block.labels.lastName}>{profile.lastName}</SummaryRow>
        <SummaryRow label={block.labels.dateOfBirth}>{profile.dateOfBirthFormatted}</SummaryRow>
        <SummaryRow label={block.labels.address}>{address.join(', ')}</SummaryRow>
      </dl>
      <RichText html={block.changeText} />
    </section>
  );
}

export default PersonalDetailsBlock;

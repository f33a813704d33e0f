import type { BlockOf } from '@portal/contracts/content';
import type { Policy } from '@portal/contracts/policy';
import { SummaryRow } from '../../../components/ui/summary-row';
import { RichText } from '../../../content/rich-text';
import { formatGbp, formatLongDate } from '../../../lib/format';
import { coverLabel, homeFirst } from '../../../lib/cover-labels';
import { usePolicyFromUrl } from '../use-policy-from-url';

/** Spec §2: start, renewal, premium, payment plan and holder are shown for policies in force or to come. */
const inForceOrToCome = new Set<Policy['status']>(['Active', 'Upcoming', 'Renewing', 'RenewalCustomerReady']);

/** Spec §9: an annual premium of 0 reads "Refer to your policy document"; a hidden premium is not shown. */
export function premiumText(premium: Policy['annualPremium'], zeroPremiumText: string): string | null {
  if (!premium.visible) return null;
  return premium.value === 0 ? zeroPremiumText : formatGbp(premium.value);
}

/** Policy details (spec customer-data §2): type of policy, cover and number, then the in-force details. */
function PolicyDetailsBlock({ block }: { block: BlockOf<'policyDetails'> }) {
  const found = usePolicyFromUrl();
  if (found.state === 'error') return <RichText html={block.errorText} className="inset-text" />;
  if (found.state !== 'ready') return null;
  const { policy } = found;
  const label = (key: string, fallback: string) => block.labels[key] ?? fallback;
  const headingId = `${block.id}-heading`;
  const cover = homeFirst(policy.linesOfBusiness.map((line) => ({ type: line.type })))
    .map((line) => coverLabel(policy.productType, line.type))
    .join(', ');
  const premium = premiumText(policy.annualPremium, block.zeroPremiumText);
  const holder = policy.policyHolders.find((h) => h.primary) ?? policy.policyHolders[0];
  const details = inForceOrToCome.has(policy.status);
  return (
    <section className="content-block policy-details" aria-labelledby={headingId}>
      <h2 id={headingId}>{block.heading ?? 'Policy details'}</h2>
      <dl className="summary-list">
        <SummaryRow label={label('policyType', 'Type of policy')}>{policy.policyType}</SummaryRow>
        {cover && <SummaryRow label={label('cover', 'Cover')}>{cover}</SummaryRow>}
        <SummaryRow label={label('policyNumber', 'Policy number')}>{policy.policyNumber}</SummaryRow>
        {policy.vehicleReg.length > 0 && (
          <SummaryRow label={label('vehicles', 'Vehicles')}>{policy.vehicleReg.join(', ')}</SummaryRow>
        )}
        {details && (
          <>
            <SummaryRow label={label('startDate', 'Start date')}>
              {formatLongDate(policy.startDate)}
            </SummaryRow>
            <SummaryRow label={label('renewalDate', 'Renewal date')}>
              {formatLongDate(policy.renewalDate)}
            </SummaryRow>
            {premium !== null && (
              <SummaryRow label={label('annualPremium', 'Annual premium')}>{premium}</SummaryRow>
            )}
            <SummaryRow label={label('paymentPlan', 'How you pay')}>
              {policy.paymentFrequency === 'Monthly'
                ? label('paymentMonthly', 'Monthly')
                : label('paymentAnnual', 'Once a year')}
            </SummaryRow>
            {holder && (
              <SummaryRow label={label('policyHolder', 'Main policyholder')}>{holder.name}</SummaryRow>
            )}
          </>
        )}
      </dl>
    </section>
  );
}

export default PolicyDetailsBlock;

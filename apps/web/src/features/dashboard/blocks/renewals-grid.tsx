import type { BlockOf } from '@portal/contracts/content';
import { Link } from 'react-router';
import { RichText } from '../../../content/rich-text';
import { coverLabel, homeFirst } from '../../../lib/cover-labels';
import { formatLongDate } from '../../../lib/format';
import { useCustomerData } from '../../../content/use-customer-data';

/**
 * Yellow cards for policies due for renewal: product, line of business or vehicles, number, renewal date.
 * Lines of business read as the cover page names them (Home first), never as the policy system's codes.
 */
function RenewalsGridBlock({ block }: { block: BlockOf<'renewalsGrid'> }) {
  const { data } = useCustomerData();
  const renewing = data?.policies.renewing ?? [];
  if (renewing.length === 0) return null;
  const headingId = `${block.id}-heading`;
  return (
    <section className="dashboard-block" aria-labelledby={headingId}>
      <h2 id={headingId}>{block.heading}</h2>
      <RichText html={block.body} />
      <ul className="card-grid">
        {renewing.map((policy) => (
          <li key={policy.policyNumber} className="policy-card policy-card--renewal">
            <h3 className="policy-card__title">{policy.productName}</h3>
            <p>
              {policy.vehicleReg.length > 0
                ? `${block.labels['vehicles'] ?? 'Vehicles'}: ${policy.vehicleReg.join(', ')}`
                : homeFirst(policy.lineOfBusinessTypes.map((type) => ({ type })))
                    .map((line) => coverLabel(policy.productType, line.type))
                    .join(', ')}
            </p>
            <dl className="summary-list">
              <div>
                <dt>{block.labels['policyNumber'] ?? 'Policy number'}</dt>
                <dd>{policy.policyNumber}</dd>
              </div>
              <div>
                <dt>{block.labels['renewalDate'] ?? 'Renewal date'}</dt>
                <dd>{formatLongDate(policy.renewalDate)}</dd>
              </div>
            </dl>
            <Link className="button" to={`/account/policies/?id=${encodeURIComponent(policy.policyNumber)}`}>
              {block.viewRenewalText}
              <span className="visually-hidden"> {policy.policyNumber}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

export default RenewalsGridBlock;

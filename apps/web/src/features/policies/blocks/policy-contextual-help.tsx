import type { BlockOf } from '@portal/contracts/content';
import { CallToActionList } from '../../../content/call-to-action';
import { RichText } from '../../../content/rich-text';
import { helpApplies } from '../policy-actions';
import { usePolicyFromUrl } from '../use-policy-from-url';

/** Policy contextual help (spec customer-data §2, §5): the content's help items that apply to this policy. */
function PolicyContextualHelpBlock({ block }: { block: BlockOf<'policyContextualHelp'> }) {
  const found = usePolicyFromUrl();
  if (found.state !== 'ready') return null;
  const items = block.items.filter((item) => helpApplies(item, found.policy));
  if (items.length === 0) return null;
  const headingId = `${block.id}-heading`;
  return (
    <section className="content-block contextual-help" aria-labelledby={headingId}>
      <h2 id={headingId}>{block.heading ?? 'Help with this policy'}</h2>
      {items.map((item) => (
        <div key={item.id} className="contextual-help__item">
          <h3>{item.heading}</h3>
          <RichText html={item.body} />
          <CallToActionList items={item.callsToAction} />
        </div>
      ))}
    </section>
  );
}

export default PolicyContextualHelpBlock;

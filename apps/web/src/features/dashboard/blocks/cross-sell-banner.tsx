import type { BlockOf } from '@portal/contracts/content';
import { CallToActionList } from '../../../content/call-to-action';
import { RichText } from '../../../content/rich-text';
import { useCurrentUser } from '../../../session/tokens';
import { useMarketingPreferences } from '../api/get-marketing-preferences';
import { crossSellApplies } from '../cross-sell-filter';
import { useCustomerData } from '../../../content/use-customer-data';

/**
 * The cross-sell banner (spec §2, §5): shown only to a customer who agreed to tailored online marketing
 * and whose policies pass the banner's product filter; otherwise the alternative banner.
 */
function CrossSellBannerBlock({ block }: { block: BlockOf<'crossSellBanner'> }) {
  const { data } = useCustomerData();
  const user = useCurrentUser();
  const preferences = useMarketingPreferences(user?.customerId);
  if (!data || preferences.isPending) return null;
  const held = [...data.policies.active, ...data.policies.renewing, ...data.policies.upcoming].map(
    (p) => p.productType,
  );
  const consent = preferences.data?.online === true;
  const show = consent && crossSellApplies(block.policyTypeFilter, block.condition, held);
  const box = show
    ? { heading: block.heading, body: block.body, callsToAction: block.callsToAction }
    : block.alternative;
  if (!box) return null;
  const headingId = `${block.id}-heading`;
  return (
    <section className="dashboard-block banner" aria-labelledby={headingId}>
      {show && block.image ? (
        <img className="banner__image" src={block.image.src} alt={block.image.alt} />
      ) : null}
      <h2 id={headingId}>{box.heading}</h2>
      <RichText html={box.body} />
      <CallToActionList items={box.callsToAction} />
    </section>
  );
}

export default CrossSellBannerBlock;

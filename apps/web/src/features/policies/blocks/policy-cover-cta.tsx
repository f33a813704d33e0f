import type { BlockOf, CallToAction } from '@portal/contracts/content';
import type { Policy } from '@portal/contracts/policy';
import { CallToActionButton } from '../../../content/call-to-action';
import { PolicySystemLink } from '../../../content/policy-system-link';
import { RichText } from '../../../content/rich-text';
import { policyActionLink, usesOnlineViewRenewal } from '../policy-actions';
import { usePolicyFromUrl } from '../use-policy-from-url';

function classFor(style: CallToAction['style']): string {
  if (style === 'link') return 'link';
  return style === 'secondary' ? 'button button--secondary' : 'button';
}

function PolicyCallToAction({ cta, policy }: { cta: CallToAction; policy: Policy }) {
  const link = policyActionLink(cta, policy);
  if (link === undefined) return <CallToActionButton cta={cta} />;
  if (link === null) return null;
  return (
    <PolicySystemLink
      href={link.href}
      bespoke={link.bespoke}
      interstitial={cta.showInterstitial}
      opensIn={cta.opensIn}
      className={classFor(cta.style)}
    >
      {cta.text}
      <span className="visually-hidden"> for policy {policy.policyNumber}</span>
    </PolicySystemLink>
  );
}

/**
 * The policy cover call to action (spec customer-data §2, §9): the online renewal box for a renewal viewed
 * online (an NGH or NGB renewal with online view renewal enabled), else the standard one. Policy-system links take the policy's own addresses
 * and show the interstitial (bespoke for request a change) before leaving; an action the policy does not
 * offer is not shown.
 */
function PolicyCoverCallToActionBlock({ block }: { block: BlockOf<'policyCoverCallToAction'> }) {
  const found = usePolicyFromUrl();
  if (found.state !== 'ready') return null;
  const { policy } = found;
  const box = usesOnlineViewRenewal(policy) ? block.onlineRenewal : block.standard;
  const headingId = `${block.id}-heading`;
  return (
    <section className="content-block policy-cta" aria-labelledby={headingId}>
      <h2 id={headingId}>{box.heading}</h2>
      <RichText html={box.body} />
      {box.callsToAction.length > 0 && (
        <div className="cta-list">
          {box.callsToAction.map((cta, i) => (
            <PolicyCallToAction key={cta.id ?? `${cta.text}-${i}`} cta={cta} policy={policy} />
          ))}
        </div>
      )}
    </section>
  );
}

export default PolicyCoverCallToActionBlock;

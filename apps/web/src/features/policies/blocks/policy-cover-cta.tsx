import type { BlockOf, CallToAction, MessageBox } from '@portal/contracts/content';
import type { Policy } from '@portal/contracts/policy';
import { CallToActionButton } from '../../../content/call-to-action';
import { PolicySystemLink } from '../../../content/policy-system-link';
import { RichText } from '../../../content/rich-text';
import { callToActionBoxFor, policyActionLink } from '../policy-actions';
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

/** The box that words this policy's actions, falling back as the contract describes. */
function boxFor(block: BlockOf<'policyCoverCallToAction'>, policy: Policy): MessageBox | undefined {
  switch (callToActionBoxFor(policy)) {
    case 'expired':
      return block.expired;
    case 'onlineRenewal':
      return block.onlineRenewal;
    case 'noOnlineChanges':
      return block.noOnlineChanges ?? block.standard;
    case 'standard':
      return block.standard;
  }
}

/**
 * The policy cover call to action (spec customer-data §2, §5, §9), worded by the policy's status and flags:
 * the online renewal box for a renewal viewed online (an NGH or NGB renewal with online view renewal
 * enabled), the expired box for a policy that has ended, the no-online-changes box for one that cannot be
 * changed online (allowMTA false), else the standard one. Policy-system links take the policy's own
 * addresses and show the interstitial (bespoke for request a change) before leaving; an action the policy
 * does not offer is not shown.
 */
function PolicyCoverCallToActionBlock({ block }: { block: BlockOf<'policyCoverCallToAction'> }) {
  const found = usePolicyFromUrl();
  if (found.state !== 'ready') return null;
  const { policy } = found;
  const box = boxFor(block, policy);
  if (!box) return null;
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

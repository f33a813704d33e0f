import type { CallToAction } from '@portal/contracts/content';
import type { Policy } from '@portal/contracts/policy';

/** Spec §9: the products whose renewals are viewed online in the policy system. */
const ONLINE_VIEW_RENEWAL_PRODUCTS: ReadonlySet<string> = new Set(['NGH', 'NGB']);
const RENEWAL_STATUSES: ReadonlySet<Policy['status']> = new Set(['Renewing', 'RenewalCustomerReady']);

/**
 * Whether a policy's renewal is viewed online (spec §2 cover call to action, §6, §9): only a renewal (Renewing
 * or RenewalCustomerReady) of an NGH or NGB product uses online view renewal, and only when the policy
 * system has enabled it and given its address. Every other policy gets the standard call to action.
 */
export function usesOnlineViewRenewal(
  policy: Pick<Policy, 'productType' | 'status' | 'policyActions'>,
): boolean {
  const { enabled, url } = policy.policyActions.onlineViewRenewal;
  return (
    enabled &&
    !!url &&
    RENEWAL_STATUSES.has(policy.status) &&
    ONLINE_VIEW_RENEWAL_PRODUCTS.has(policy.productType)
  );
}

/**
 * Whether the policy can be changed online (make a change online, the help that says so): the policy system
 * allows it (allowMTA), gave its address, and the policy has not ended.
 */
function offersOnlineChanges(policy: Pick<Policy, 'allowMTA' | 'status' | 'policyActions'>): boolean {
  return policy.allowMTA && policy.status !== 'Expired' && !!policy.policyActions.onlineMidTermAdjustment.url;
}

/** Which of the cover call to action's boxes words a policy's actions (spec §2 and §5's filters). */
export type CallToActionBox = 'onlineRenewal' | 'standard' | 'noOnlineChanges' | 'expired';

export function callToActionBoxFor(
  policy: Pick<Policy, 'allowMTA' | 'status' | 'productType' | 'policyActions'>,
): CallToActionBox {
  if (policy.status === 'Expired') return 'expired';
  if (usesOnlineViewRenewal(policy)) return 'onlineRenewal';
  return offersOnlineChanges(policy) ? 'standard' : 'noOnlineChanges';
}

export interface PolicyActionLink {
  href: string;
  /** Request a change uses the bespoke interstitial. */
  bespoke: boolean;
}

/**
 * The policy-system address behind a call to action of a policy-system link type (spec §4: GuidewireMTA,
 * GuidewireViewRenewal, GuidewireRequestAChange), from the policy's own actions; null when the policy does
 * not offer it (no address, an expired policy, mid-term changes not allowed, or not a renewal viewed online:
 * usesOnlineViewRenewal).
 * Undefined for any other link type: content decides those.
 */
export function policyActionLink(cta: CallToAction, policy: Policy): PolicyActionLink | null | undefined {
  const actions = policy.policyActions;
  switch (cta.linkType) {
    case 'GuidewireMTA':
      return offersOnlineChanges(policy) && actions.onlineMidTermAdjustment.url
        ? { href: actions.onlineMidTermAdjustment.url, bespoke: false }
        : null;
    case 'GuidewireViewRenewal':
      return usesOnlineViewRenewal(policy) && actions.onlineViewRenewal.url
        ? { href: actions.onlineViewRenewal.url, bespoke: false }
        : null;
    case 'GuidewireRequestAChange':
      // An ended policy has nothing left to change.
      return policy.status !== 'Expired' && actions.bespokeRequestAChange.url
        ? { href: actions.bespokeRequestAChange.url, bespoke: true }
        : null;
    default:
      return undefined;
  }
}

type HelpItem = {
  allowMTA?: boolean | undefined;
  displayFilter?: 'Enabled' | 'Disabled' | 'PolicyRenewalCustomerReady' | undefined;
  productTypes?: readonly string[] | undefined;
};

/**
 * Spec §5: policy contextual help filters by allowMTA, by display filter and by product type list. An item
 * without a filter applies to every policy. Display filter Enabled and Disabled follow whether a policy
 * that has not ended can be changed online (allowMTA); an expired policy, which cannot be changed at all,
 * matches neither. PolicyRenewalCustomerReady shows only while the renewal is ready.
 */
export function helpApplies(
  item: HelpItem,
  policy: Pick<Policy, 'allowMTA' | 'status' | 'productType'>,
): boolean {
  const ended = policy.status === 'Expired';
  if (item.allowMTA !== undefined && item.allowMTA !== policy.allowMTA) return false;
  if (item.displayFilter === 'Enabled' && (ended || !policy.allowMTA)) return false;
  if (item.displayFilter === 'Disabled' && (ended || policy.allowMTA)) return false;
  if (item.displayFilter === 'PolicyRenewalCustomerReady' && policy.status !== 'RenewalCustomerReady')
    return false;
  if (item.productTypes && item.productTypes.length > 0 && !item.productTypes.includes(policy.productType))
    return false;
  return true;
}

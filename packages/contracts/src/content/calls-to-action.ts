import { z } from 'zod/mini';
import { contentImage, opensIn, richText, safeLink } from './building-blocks';

// ---------------------------------------------------------------------------------------------------
// Calls to action and modal windows
// ---------------------------------------------------------------------------------------------------

/**
 * What a call to action does. Close hides the modal, Logout signs out, the Guidewire types leave for
 * the policy system (mid-term adjustment, view renewal, request a change) and use the policy's own URL.
 */
export const linkType = z.enum([
  'submit',
  'primaryFunctional',
  'Close',
  'Logout',
  'Default',
  'GuidewireMTA',
  'GuidewireViewRenewal',
  'GuidewireRequestAChange',
]);
export type LinkType = z.infer<typeof linkType>;

export const callToAction = z.object({
  id: z.optional(z.string()),
  text: z.string().check(z.minLength(1)),
  /** Shorter text for narrow screens. */
  mobileLabel: z.optional(z.string()),
  link: z._default(safeLink, ''),
  linkType: z._default(linkType, 'Default'),
  opensIn: z._default(opensIn, 'SameTab'),
  /** Show the interstitial modal before leaving to the policy system. */
  showInterstitial: z._default(z.boolean(), false),
  /** Visual weight: primary (green button), secondary (outline button) or a plain link. */
  style: z._default(z.enum(['primary', 'secondary', 'link']), 'primary'),
});
export type CallToAction = z.infer<typeof callToAction>;

export const modalContent = z.looseObject({
  id: z.string().check(z.minLength(1)),
  heading: z.string().check(z.minLength(1)),
  topHeading: z.optional(z.string()),
  bodyText: z.optional(richText),
  upperBody: z.optional(richText),
  lowerBody: z.optional(richText),
  requestText: z.optional(richText),
  desktopImage: z.optional(contentImage),
  mobileImage: z.optional(contentImage),
  logoTop: z.optional(contentImage),
  primaryCallsToAction: z._default(z.array(callToAction), []),
  secondaryCallsToAction: z._default(z.array(callToAction), []),
  tertiaryCallsToAction: z._default(z.array(callToAction), []),
  /** Label of the close (X) button, for screen readers. */
  closeLabel: z._default(z.string(), 'Close'),
  /** Date window (ISO 8601) in which a splash (welcome back) modal shows. */
  displayFrom: z.optional(z.iso.datetime({ offset: true })),
  displayUntil: z.optional(z.iso.datetime({ offset: true })),
});
export type ModalContent = z.infer<typeof modalContent>;

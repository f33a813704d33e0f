import type { BlockOf, ContentBlock, ContentBlockType } from '@portal/contracts/content';
import { lazy, Suspense, type ComponentType } from 'react';
import { CallToActionListBlock } from './blocks/call-to-action-list-block';
import { FaqBlock } from './blocks/faq-block';
import { RichTextBlock } from './blocks/rich-text-block';
import { ServiceAlertBlock } from './blocks/service-alert-block';
import { TabbedNavigationBlock } from './blocks/tabbed-navigation-block';
import { UnavailableBlock } from './blocks/unavailable-block';

type BlockComponent<T extends ContentBlockType> = ComponentType<{ block: BlockOf<T> }>;

type BlockRegistry = { [T in ContentBlockType]?: BlockComponent<T> };

/**
 * Content block type -> the component that renders it. Customer-data blocks are lazy, loaded with their
 * feature's code; a block type with no component yet renders the "not available online yet" note.
 */
const blockRegistry: BlockRegistry = {
  richText: RichTextBlock,
  callToActionList: CallToActionListBlock,
  serviceAlert: ServiceAlertBlock,
  faq: FaqBlock,
  tabbedNavigation: TabbedNavigationBlock,
  // Customer-data blocks: each loaded with its feature's code, on the pages that have them.
  renewalsGrid: lazy(() => import('../features/dashboard/blocks/renewals-grid')),
  policiesGrid: lazy(() => import('../features/dashboard/blocks/policies-grid')),
  quotes: lazy(() => import('../features/dashboard/blocks/quotes-block')),
  agencyCard: lazy(() => import('../features/dashboard/blocks/agency-card')),
  crossSellBanner: lazy(() => import('../features/dashboard/blocks/cross-sell-banner')),
  agencyContextualHelp: lazy(() => import('../features/dashboard/blocks/agency-contextual-help')),
  policyDetails: lazy(() => import('../features/policies/blocks/policy-details')),
  policyCoverInsert: lazy(() => import('../features/policies/blocks/policy-cover')),
  policyDocumentPacks: lazy(() => import('../features/policies/blocks/policy-documents')),
  policyCoverCallToAction: lazy(() => import('../features/policies/blocks/policy-cover-cta')),
  policyContextualHelp: lazy(() => import('../features/policies/blocks/policy-contextual-help')),
  billingDocuments: lazy(() => import('../features/billing/blocks/billing-documents')),
  personalDetails: lazy(() => import('../features/profile/blocks/personal-details')),
  contactDetails: lazy(() => import('../features/profile/blocks/contact-details')),
  passwordDetails: lazy(() => import('../features/profile/blocks/password-details')),
  marketingPreferences: lazy(() => import('../features/preferences/blocks/marketing-preferences')),
  correspondencePreferences: lazy(() => import('../features/preferences/blocks/correspondence-preferences')),
  contactForm: lazy(() => import('../features/contact/blocks/contact-form')),
};

function blockComponentFor(type: string): ComponentType<{ block: ContentBlock }> | undefined {
  // The registry keeps each type with its own component; looking one up by a runtime type loses that link.
  return (blockRegistry as Record<string, ComponentType<{ block: ContentBlock }> | undefined>)[type];
}

function ContentBlockView({ block }: { block: ContentBlock }) {
  const Component = blockComponentFor(block.type);
  if (!Component) return <UnavailableBlock block={block} />;
  return (
    <Suspense fallback={<p className="block-loading">Loading…</p>}>
      {/* Looked up in a module-level registry: the same component every render, so no state is lost. */}
      {/* eslint-disable-next-line react-hooks/static-components */}
      <Component block={block} />
    </Suspense>
  );
}

export function ContentBlocks({ blocks }: { blocks: readonly ContentBlock[] }) {
  return (
    <>
      {blocks.map((block) => (
        <ContentBlockView key={block.id} block={block} />
      ))}
    </>
  );
}

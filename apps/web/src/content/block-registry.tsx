import type { BlockOf, ContentBlock, ContentBlockType } from '@portal/contracts/content';
import { Suspense, type ComponentType } from 'react';
import { CallToActionListBlock } from './blocks/call-to-action-list-block';
import { FaqBlock } from './blocks/faq-block';
import { RichTextBlock } from './blocks/rich-text-block';
import { ServiceAlertBlock } from './blocks/service-alert-block';
import { TabbedNavigationBlock } from './blocks/tabbed-navigation-block';
import { UnavailableBlock } from './blocks/unavailable-block';

export type BlockComponent<T extends ContentBlockType> = ComponentType<{ block: BlockOf<T> }>;

type BlockRegistry = { [T in ContentBlockType]?: BlockComponent<T> };

/**
 * Content block type -> the component that renders it. Blocks that need a customer-data feature are
 * registered by that feature (registerBlockType, typically with React.lazy); until then they render
 * the "not available online yet" note.
 */
const blockRegistry: BlockRegistry = {
  richText: RichTextBlock,
  callToActionList: CallToActionListBlock,
  serviceAlert: ServiceAlertBlock,
  faq: FaqBlock,
  tabbedNavigation: TabbedNavigationBlock,
};

export function registerBlockType<T extends ContentBlockType>(type: T, component: BlockComponent<T>): void {
  (blockRegistry as Record<string, unknown>)[type] = component;
}

export function blockComponentFor(type: string): ComponentType<{ block: ContentBlock }> | undefined {
  // The registry keeps each type with its own component; looking one up by a runtime type loses that link.
  return (blockRegistry as Record<string, ComponentType<{ block: ContentBlock }> | undefined>)[type];
}

export function ContentBlockView({ block }: { block: ContentBlock }) {
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

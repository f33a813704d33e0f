import type { ContentBlock, ContentBlockType, BlockOf } from '@portal/contracts/content';
import {
  lazy,
  Suspense,
  useContext,
  useEffect,
  useState,
  type ComponentType,
  type LazyExoticComponent,
} from 'react';
import { blockLoaderFor, BlockLoadersContext, type AnyBlockLoader, type BlockLoaders } from './block-loaders';
import { CallToActionListBlock } from './blocks/call-to-action-list-block';
import { FaqBlock } from './blocks/faq-block';
import { RichTextBlock } from './blocks/rich-text-block';
import { ServiceAlertBlock } from './blocks/service-alert-block';
import { TabbedNavigationBlock } from './blocks/tabbed-navigation-block';
import { UnavailableBlock } from './blocks/unavailable-block';

type BlockComponent<T extends ContentBlockType> = ComponentType<{ block: BlockOf<T> }>;
type AnyBlockComponent = ComponentType<{ block: ContentBlock }>;

/** Content's own block types -> the component that renders them, at once (server rendering too). */
const ownBlocks: { [T in ContentBlockType]?: BlockComponent<T> } = {
  richText: RichTextBlock,
  callToActionList: CallToActionListBlock,
  serviceAlert: ServiceAlertBlock,
  faq: FaqBlock,
  tabbedNavigation: TabbedNavigationBlock,
};

/*
 * The customer-data blocks belong to the features: the app hands their loaders down (BlockLoadersContext,
 * app/block-registry.ts), each loaded with its feature's code on the pages that have them. The route
 * loader starts loading a page's blocks with the page (preloadBlocks), beside its data, so the blocks do
 * not wait for their code once the data is there. A block type with no component renders the "not
 * available online yet" note.
 */

/** Loaded block components by type: rendered at once, with no loading step. */
const loadedBlocks = new Map<string, AnyBlockComponent>();
const pendingBlocks = new Map<string, Promise<{ default: AnyBlockComponent }>>();
const lazyBlocks = new Map<string, LazyExoticComponent<AnyBlockComponent>>();

/** Loads (once) the code of a lazily loaded block type. */
function loadBlock(type: string, loader: AnyBlockLoader) {
  let pending = pendingBlocks.get(type);
  if (!pending) {
    pending = loader().then(
      (module) => {
        loadedBlocks.set(type, module.default);
        return module;
      },
      (error: unknown) => {
        // A later render may succeed (flaky connection); don't remember the failure.
        pendingBlocks.delete(type);
        throw error;
      },
    );
    pendingBlocks.set(type, pending);
  }
  return pending;
}

/** Starts downloading the code of a page's blocks without waiting for it (called by the route loader). */
export function preloadBlocks(loaders: BlockLoaders, blocks: readonly ContentBlock[]): void {
  for (const block of blocks) {
    const loader = blockLoaderFor(loaders, block.type);
    if (loader && !loadedBlocks.has(block.type)) loadBlock(block.type, loader).catch(() => undefined);
  }
}

/**
 * Whether the code of all these blocks is here (loading what is not): a page that shows a loading state
 * for its data keeps it until its blocks can render at once too, so they appear in one step and nothing
 * below them moves twice. A block whose code failed to load counts as ready: it shows its own error.
 */
export function useBlocksReady(blocks: readonly ContentBlock[]): boolean {
  const loaders = useContext(BlockLoadersContext);
  const missing = blocks.filter(
    (block) => blockLoaderFor(loaders, block.type) && !loadedBlocks.has(block.type),
  );
  const [settled, setSettled] = useState<readonly ContentBlock[] | null>(null);
  const waiting = missing.length > 0 && settled !== blocks;
  useEffect(() => {
    if (!waiting) return;
    let live = true;
    void Promise.allSettled(
      blocks.map((block) => {
        const loader = blockLoaderFor(loaders, block.type);
        return loader ? loadBlock(block.type, loader) : undefined;
      }),
    ).then(() => {
      if (live) setSettled(blocks);
    });
    return () => {
      live = false;
    };
  }, [waiting, blocks, loaders]);
  return !waiting;
}

function blockComponentFor(loaders: BlockLoaders, type: string): AnyBlockComponent | undefined {
  const own = (ownBlocks as Record<string, AnyBlockComponent | undefined>)[type];
  if (own) return own;
  const loaded = loadedBlocks.get(type);
  if (loaded) return loaded;
  const loader = blockLoaderFor(loaders, type);
  if (!loader) return undefined;
  let component = lazyBlocks.get(type);
  if (!component) {
    component = lazy(() => loadBlock(type, loader));
    lazyBlocks.set(type, component);
  }
  return component;
}

function ContentBlockView({ block }: { block: ContentBlock }) {
  const Component = blockComponentFor(useContext(BlockLoadersContext), block.type);
  if (!Component) return <UnavailableBlock block={block} />;
  return (
    <Suspense fallback={<p className="block-loading">Loading…</p>}>
      {/* Looked up in module-level caches: the same component every render, so no state is lost. */}
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

import type { BlockOf, ContentBlock, ContentBlockType } from '@portal/contracts/content';
import { createContext, type ComponentType } from 'react';

type BlockComponent<T extends ContentBlockType> = ComponentType<{ block: BlockOf<T> }>;

/** The code of a block type whose component belongs to a feature, loaded on the pages that have one. */
export type BlockLoaders = { [T in ContentBlockType]?: () => Promise<{ default: BlockComponent<T> }> };

export type AnyBlockLoader = () => Promise<{ default: ComponentType<{ block: ContentBlock }> }>;

/**
 * The feature blocks the app composes (app/block-registry.ts), handed down from the root route: content
 * renders them without importing any feature. Without a provider only content's own blocks render; any
 * other type shows the "not available online yet" note.
 */
export const BlockLoadersContext = createContext<BlockLoaders>({});

export function blockLoaderFor(loaders: BlockLoaders, type: string): AnyBlockLoader | undefined {
  // The loaders keep each type with its own component; looking one up by a runtime type loses that link.
  return (loaders as Record<string, AnyBlockLoader | undefined>)[type];
}

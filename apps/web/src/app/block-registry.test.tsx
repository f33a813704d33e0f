import type { ContentBlock } from '@portal/contracts/content';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BlockLoadersContext } from '../content/block-loaders';
import { ContentBlocks } from '../content/content-blocks';
import { blockLoaders } from './block-registry';

const quotes = {
  id: 'quotes-1',
  type: 'quotes',
  heading: 'Your quotes',
  labels: {},
  downloadText: 'Download',
  continueOnlineText: 'Continue your quote',
} as unknown as ContentBlock;

describe('block registry (the app composes the features’ blocks)', () => {
  it('loads a component for every feature block it lists', async () => {
    for (const [type, load] of Object.entries(blockLoaders)) {
      const module = await load();
      expect(typeof module.default, type).toBe('function');
    }
  });

  it('content renders a feature block only through the blocks the app hands it', async () => {
    const { unmount } = render(<ContentBlocks blocks={[quotes]} />);
    expect(screen.getByText(/not available online yet/)).toBeInTheDocument();
    unmount();

    render(
      <BlockLoadersContext
        value={{
          quotes: async () => ({ default: ({ block }) => <h2>{block.heading} from the feature</h2> }),
        }}
      >
        <ContentBlocks blocks={[quotes]} />
      </BlockLoadersContext>,
    );
    expect(await screen.findByRole('heading', { name: 'Your quotes from the feature' })).toBeInTheDocument();
    expect(screen.queryByText(/not available online yet/)).not.toBeInTheDocument();
  });
});

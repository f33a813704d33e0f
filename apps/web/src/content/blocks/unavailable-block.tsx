import type { ContentBlock } from '@portal/contracts/content';

const UNAVAILABLE_BLOCK_TEXT = 'This is not available online yet.';

/**
 * A block whose data feature is not built yet. It says so plainly rather than showing anything that
 * could be mistaken for the customer's data.
 */
export function UnavailableBlock({ block }: { block: ContentBlock }) {
  return (
    <p className="block-unavailable" data-block-type={block.type}>
      {block.heading ? <strong>{block.heading}: </strong> : null}
      {UNAVAILABLE_BLOCK_TEXT}
    </p>
  );
}

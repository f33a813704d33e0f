import type { BlockOf } from '@portal/contracts/content';
import { RichText } from '../rich-text';

export function RichTextBlock({ block }: { block: BlockOf<'richText'> }) {
  return (
    <section className="block">
      {block.heading ? <h2>{block.heading}</h2> : null}
      <RichText html={block.html} />
    </section>
  );
}

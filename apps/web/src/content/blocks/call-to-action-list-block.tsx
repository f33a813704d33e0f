import type { BlockOf } from '@portal/contracts/content';
import { CallToActionList } from '../call-to-action';
import { RichText } from '../rich-text';

export function CallToActionListBlock({ block }: { block: BlockOf<'callToActionList'> }) {
  return (
    <section className="block">
      {block.heading ? <h2>{block.heading}</h2> : null}
      <RichText html={block.body} />
      <CallToActionList items={block.callsToAction} />
    </section>
  );
}
